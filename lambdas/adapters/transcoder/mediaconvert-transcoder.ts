// The AWS transcoder: AWS Elemental MediaConvert behind the Transcoder interface. `start` probes the source with
// MediaConvert's Probe API (a file it cannot read fails at once, and the plan knows the audio layout and the
// thumbnail time) and creates the job from mediaconvert-job.ts. Outcomes arrive later as EventBridge events: an
// EventBridge rule invokes a Lambda that hands each event to `handleJobStateChange`, which reports through the
// same listener shape as the local ffmpeg transcoder.
import { BadRequestException, CreateJobCommand, ProbeCommand, type MediaConvertClient, type ProbeResult } from '@aws-sdk/client-mediaconvert';
import { CopyObjectCommand, DeleteObjectsCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { limitRefusal, outputKeys, planTranscode, type SourceMedia } from '../../core/media-spec';
import { errorKeyForCode, parseJobStateChange, type JobMetadata, type JobOutput, type JobStateChange } from './mediaconvert-events';
import { createJobRequest, type MediaConvertSetup } from './mediaconvert-job';
import { jobRef, type TranscodeJob, type TranscodeListener, type TranscodeResult, type TranscodeUpdate, type Transcoder } from '../../core/media/transcoder';

export interface MediaConvertTranscoderOptions extends MediaConvertSetup {
  mediaConvert: MediaConvertClient;
  s3: S3Client;
  onUpdate: TranscodeListener;
}

/** MediaConvert Probe's description of the first file, in the media spec's terms. */
export function sourceFromProbe(result: ProbeResult | undefined): SourceMedia {
  const tracks = result?.Container?.Tracks ?? [];
  const video = tracks.find((track) => track.TrackType === 'video' && track.VideoProperties?.Width && track.VideoProperties.Height);
  const audio = tracks.find((track) => track.TrackType === 'audio' && track.AudioProperties?.Channels);
  const sar = video?.VideoProperties?.SampleAspectRatio;
  const rate = video?.VideoProperties?.FrameRate;
  const duration = result?.Container?.Duration;
  return {
    ...(duration !== undefined ? { durationSeconds: duration } : {}),
    ...(video?.VideoProperties
      ? {
          video: {
            width: video.VideoProperties.Width!,
            height: video.VideoProperties.Height!,
            sampleAspectRatio: sar?.Numerator && sar.Denominator ? sar.Numerator / sar.Denominator : 1,
            rotation: video.VideoProperties.Rotation ?? video.VideoProperties.CodecMetadata?.Rotation ?? 0,
            ...(rate?.Numerator && rate.Denominator ? { frameRate: rate.Numerator / rate.Denominator } : {}),
            ...(video.Duration !== undefined ? { durationSeconds: video.Duration } : {}),
          },
        }
      : {}),
    ...(audio?.AudioProperties
      ? { audio: { channels: audio.AudioProperties.Channels!, ...(audio.Duration !== undefined ? { durationSeconds: audio.Duration } : {}) } }
      : {}),
  };
}

const s3Key = (path: string, bucket: string): string => {
  const prefix = `s3://${bucket}/`;
  if (!path.startsWith(prefix)) throw new Error(`MediaConvert wrote ${path}, outside the media bucket ${bucket}`);
  return path.slice(prefix.length);
};

/** Frame capture's numbered images next to the thumbnail (`thumb.0000000.jpg`, `thumb.0000001.jpg`). */
const isFrameCapture = (key: string, thumbnailKey: string): boolean => {
  const stem = thumbnailKey.replace(/jpg$/, '');
  return key.startsWith(stem) && /^\d{7}\.jpg$/.test(key.slice(stem.length));
};

export class MediaConvertTranscoder implements Transcoder {
  constructor(private readonly options: MediaConvertTranscoderOptions) {}

  async start(job: TranscodeJob): Promise<string> {
    const { mediaConvert, bucket, onUpdate } = this.options;
    let probed: ProbeResult | undefined;
    try {
      const response = await mediaConvert.send(new ProbeCommand({ InputFiles: [{ FileUrl: `s3://${bucket}/${job.sourceKey}` }] }));
      probed = response.ProbeResults?.[0];
    } catch (error) {
      // Probe answers 400 for a file it cannot parse; throttling, access and service errors are ours (retry).
      if (!(error instanceof BadRequestException)) throw error;
    }
    const planned = planTranscode(job.kind, sourceFromProbe(probed), { quality: job.quality, allowed: job.limits.outputProfiles });
    const refused = planned.ok ? limitRefusal(planned.plan, job.limits) : { key: 'uploader encode error' as const, reason: planned.reason };
    if (!planned.ok || refused) {
      const jobId = `rejected-${job.videoId}`;
      await onUpdate({ type: 'failed', jobId, job: jobRef(job), error: refused!.key, reason: refused!.reason });
      return jobId;
    }
    const created = await mediaConvert.send(new CreateJobCommand(createJobRequest(job, planned.plan, this.options)));
    if (!created.Job?.Id) throw new Error('MediaConvert created a job without an id');
    return created.Job.Id;
  }

  /** Reports what an EventBridge "MediaConvert Job State Change" event means for its item; ignores other jobs. */
  async handleJobStateChange(event: unknown): Promise<void> {
    const change = parseJobStateChange(event);
    if (!change) return;
    await this.options.onUpdate(await this.updateFor(change));
  }

  private async updateFor(change: JobStateChange): Promise<TranscodeUpdate> {
    const { jobId, metadata } = change;
    const job = jobRef(metadata);
    switch (change.status) {
      case 'PROGRESSING':
        return { type: 'progress', jobId, job, percent: Math.max(0, Math.min(99, Math.floor(change.percent))) };
      case 'ERROR':
        return {
          type: 'failed',
          jobId,
          job,
          error: errorKeyForCode(change.errorCode),
          reason: `MediaConvert error ${change.errorCode}: ${change.errorMessage}`,
        };
      case 'CANCELED':
        return { type: 'failed', jobId, job, error: 'internal error', reason: 'the MediaConvert job was canceled' };
      case 'COMPLETE':
        return { type: 'completed', jobId, job, result: await this.finish(metadata, change.outputs) };
    }
  }

  /** Reads the facts of the written outputs and puts the thumbnail at its contract key. */
  private async finish({ kind, outputPrefix, output }: JobMetadata, outputs: JobOutput[]): Promise<TranscodeResult> {
    const { s3, bucket } = this.options;
    const keys = outputKeys(outputPrefix, kind);
    const media = outputs.find((output) => s3Key(output.path, bucket) === keys.media);
    if (!media || media.durationMs === undefined) throw new Error(`the COMPLETE event names no ${keys.media} with a duration`);
    const { ContentLength: sizeBytes } = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: keys.media }));
    if (sizeBytes === undefined) throw new Error(`no size for ${keys.media}`);
    const base = { durationSeconds: media.durationMs / 1000, sizeBytes, outputKey: keys.media };
    if (kind === 'audio' || !keys.thumbnail) return { kind: 'audio', ...base };

    const thumbnailKey = keys.thumbnail;
    const capture = outputs.map((output) => s3Key(output.path, bucket)).find((key) => isFrameCapture(key, thumbnailKey));
    if (!capture || media.width === undefined || media.height === undefined) {
      throw new Error('the COMPLETE event names no frame capture or no picture size');
    }
    // The contract key is thumb.jpg (as locally); frame capture can only write numbered names.
    const copySource = encodeURI(`${bucket}/${capture}`);
    await s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: thumbnailKey, CopySource: copySource, ContentType: 'image/jpeg', MetadataDirective: 'REPLACE' }),
    );
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: thumbnailKey.replace(/jpg$/, '') }));
    const captures = (listed.Contents ?? []).flatMap(({ Key }) => (Key && isFrameCapture(Key, thumbnailKey) ? [{ Key }] : []));
    if (captures.length) await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: captures } }));
    const { ContentLength: thumbnailBytes } = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: thumbnailKey }));
    return { kind: 'video', ...base, output, width: media.width, height: media.height, thumbnailKey, thumbnailBytes: thumbnailBytes ?? 0 };
  }
}

// The local stand-in for MediaConvert: the same job in, the same files out (lambdas/core/media-spec.ts), made by
// ffmpeg on this machine. A job: download the source from S3 to a temporary folder, probe it, encode it with low
// priority and few threads (the local stack must stay responsive on 2 cores), take the thumbnail, upload the
// outputs, report. Jobs run one at a time in the order started, like a MediaConvert queue.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { limitRefusal, outputKeys, planTranscode } from '../../core/media-spec';
import { logger } from '../logger';
import { run } from './child-process';
import { defaultTuning, ProgressReader, thumbnailArguments, transcodeArguments, type FfmpegTuning } from './ffmpeg-args';
import { ffprobe, selectedStreams, sourceFromFfprobe } from './ffprobe';
import {
  jobRef,
  type TranscodeErrorKey,
  type TranscodeJob,
  type TranscodeListener,
  type TranscodeResult,
  type TranscodeUpdate,
  type Transcoder,
} from '../../core/media/transcoder';

export interface FfmpegTranscoderOptions {
  s3: S3Client;
  /** The media bucket. */
  bucket: string;
  onUpdate: TranscodeListener;
  tuning?: Partial<FfmpegTuning>;
  /** Niceness of ffmpeg (0-19); the API, the realtime server and running streams come first. */
  niceness?: number;
  /** Parent of the per-job temporary folders; the system's temp folder by default. */
  workDir?: string;
}

/** A failure with the key the user sees; anything else thrown is ours ('internal error'). */
class JobFailure extends Error {
  constructor(
    readonly key: TranscodeErrorKey,
    reason: string,
  ) {
    super(reason);
  }
}

const notDecodable = (reason: string) => new JobFailure('uploader encode error', reason);

const multipartPartBytes = 8 * 1024 * 1024;

export class FfmpegTranscoder implements Transcoder {
  private readonly tuning: FfmpegTuning;
  private readonly queue: { jobId: string; job: TranscodeJob }[] = [];
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly options: FfmpegTranscoderOptions) {
    this.tuning = { ...defaultTuning, ...options.tuning };
  }

  async start(job: TranscodeJob): Promise<string> {
    if (this.abort.signal.aborted) throw new Error('the transcoder is closed');
    const jobId = `local-${randomUUID()}`;
    this.queue.push({ jobId, job });
    this.running ??= this.drain();
    return jobId;
  }

  /** Stops the running ffmpeg and drops queued jobs without reporting them: their items stay `encoding` and are
   * started again by whoever owns them. Resolves when the temporary files are gone. */
  async close(): Promise<void> {
    this.abort.abort();
    this.queue.length = 0;
    await this.running;
  }

  private async drain(): Promise<void> {
    // Yield first, so start() has answered before the first update.
    await new Promise((resolve) => setImmediate(resolve));
    for (let next = this.queue.shift(); next && !this.abort.signal.aborted; next = this.queue.shift()) {
      await this.runJob(next.jobId, next.job);
    }
    this.running = undefined;
  }

  private async runJob(jobId: string, job: TranscodeJob): Promise<void> {
    const ref = jobRef(job);
    const report = async (update: TranscodeUpdate) => {
      if (this.abort.signal.aborted) return; // closed: the job's item is started again later
      try {
        await this.options.onUpdate(update);
      } catch (error) {
        logger.error('transcode update not delivered', { jobId, update: update.type, error });
      }
    };
    const workDir = this.options.workDir ?? tmpdir();
    let dir: string | undefined;
    let outcome: TranscodeUpdate;
    try {
      await mkdir(workDir, { recursive: true });
      dir = await mkdtemp(join(workDir, 'loopcast-transcode-'));
      const result = await this.transcode(job, dir, (percent) => report({ type: 'progress', jobId, job: ref, percent }));
      outcome = { type: 'completed', jobId, job: ref, result };
    } catch (error) {
      const failure = error instanceof JobFailure ? error : new JobFailure('internal error', String(error));
      if (failure.key === 'internal error' && !this.abort.signal.aborted) logger.error('transcode failed', { jobId, error });
      outcome = { type: 'failed', jobId, job: ref, error: failure.key, reason: failure.message };
    } finally {
      // Never keeps the outcome from being reported.
      if (dir)
        await rm(dir, { recursive: true, force: true }).catch((error: unknown) => logger.warn('transcode work files not removed', { jobId, dir, error }));
    }
    // Reported once its temporary files are gone: a finished job leaves nothing behind (tests rely on it too).
    await report(outcome);
  }

  private async transcode(job: TranscodeJob, dir: string, onPercent: (percent: number) => Promise<void>): Promise<TranscodeResult> {
    const { signal } = this.abort;
    const source = join(dir, 'source');
    const object = await this.options.s3.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: job.sourceKey }), { abortSignal: signal });
    await pipeline(object.Body as Readable, createWriteStream(source), { signal });

    const probe = await ffprobe(source, signal);
    if (!probe) throw notDecodable('ffprobe cannot read the file');
    const planned = planTranscode(job.kind, sourceFromFfprobe(probe), { quality: job.quality, allowed: job.limits.outputProfiles });
    if (!planned.ok) throw notDecodable(planned.reason);
    const plan = planned.plan;
    const refused = limitRefusal(plan, job.limits);
    if (refused) throw new JobFailure(refused.key, refused.reason);

    const keys = outputKeys(job.outputPrefix, job.kind);
    const output = join(dir, job.kind === 'video' ? 'stream.mp4' : 'stream.m4a');
    const niceness = this.options.niceness ?? 10;
    let lastPercent = -1;
    const progress = new ProgressReader(plan.durationSeconds, (percent) => {
      // One update per whole percent, never 100 (that is `completed`).
      const capped = Math.min(99, percent);
      if (capped <= lastPercent) return;
      lastPercent = capped;
      void onPercent(capped);
    });
    const encoded = await run('ffmpeg', transcodeArguments(plan, selectedStreams(probe), source, output, this.tuning), {
      onStdout: (chunk) => progress.push(chunk),
      niceness,
      signal,
    });
    if (encoded.exitCode !== 0) {
      if (/No space left on device/i.test(encoded.stderrTail)) throw new Error(`ffmpeg: ${encoded.stderrTail}`);
      throw notDecodable(`ffmpeg could not decode the file: ${encoded.stderrTail.split('\n').slice(-3).join(' | ')}`);
    }
    const writtenProbe = await ffprobe(output, signal);
    if (!writtenProbe) throw new Error('ffprobe cannot read the output ffmpeg wrote');
    const written = sourceFromFfprobe(writtenProbe);
    const durationSeconds = written.durationSeconds;
    if (durationSeconds === undefined) throw new Error('the output has no duration');
    const sizeBytes = (await stat(output)).size;

    if (plan.kind === 'audio') {
      await this.uploadAll([{ file: output, key: keys.media, contentType: 'audio/mp4' }]);
      return { kind: 'audio', durationSeconds, sizeBytes, outputKey: keys.media };
    }
    if (!written.video || !keys.thumbnail) throw new Error('the output has no video track');
    const thumbnail = join(dir, 'thumb.jpg');
    const captured = await run('ffmpeg', thumbnailArguments(output, plan.thumbnailAtSeconds, thumbnail), { niceness, signal });
    if (captured.exitCode !== 0) throw new Error(`thumbnail: ${captured.stderrTail}`);
    await this.uploadAll([
      { file: output, key: keys.media, contentType: 'video/mp4' },
      { file: thumbnail, key: keys.thumbnail, contentType: 'image/jpeg' },
    ]);
    const { width, height } = written.video;
    const thumbnailBytes = (await stat(thumbnail)).size;
    return {
      kind: 'video',
      output: plan.output,
      durationSeconds,
      width,
      height,
      sizeBytes,
      outputKey: keys.media,
      thumbnailKey: keys.thumbnail,
      thumbnailBytes,
    };
  }

  /** All outputs or none: a failed upload removes what this job already wrote (and nothing else). */
  private async uploadAll(files: { file: string; key: string; contentType: string }[]): Promise<void> {
    const { s3, bucket } = this.options;
    try {
      for (const { file, key, contentType } of files) {
        const size = (await stat(file)).size;
        if (size < multipartPartBytes) {
          // Sent from memory: the SDK retries a request whose body it can send again, never a stream's (a reset
          // connection to a busy S3 failed the whole transcode).
          const put = new PutObjectCommand({ Bucket: bucket, Key: key, Body: await readFile(file), ContentType: contentType });
          await s3.send(put, { abortSignal: this.abort.signal });
        } else {
          // Multipart, streamed from disk: outputs of long videos are gigabytes.
          const params = { Bucket: bucket, Key: key, Body: createReadStream(file), ContentType: contentType };
          await new Upload({ client: s3, params, queueSize: 2, partSize: multipartPartBytes, abortController: this.abort }).done();
        }
      }
    } catch (error) {
      await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: files.map(({ key }) => ({ Key: key })) } })).catch(() => undefined);
      throw error;
    }
  }
}

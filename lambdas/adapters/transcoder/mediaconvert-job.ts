// The media spec (lambdas/core/media-spec.ts) as a MediaConvert CreateJob request: the same output as
// ffmpeg-args.ts, in MediaConvert's terms. Pure. No job template: the settings live here, next to the spec they
// implement and under test, instead of in a CloudFormation resource that could drift from it.
import type {
  AudioDescription,
  CreateJobCommandInput,
  H264CodecLevel,
  Input,
  OutputGroup,
  RemixSettings,
  VideoDescription,
  VideoPreprocessor,
} from '@aws-sdk/client-mediaconvert';
import { audioOutput, outputKeys, thumbnailOutput, videoOutput, type OutputSettings, type StereoMix, type TranscodePlan } from '../../core/media-spec';
import type { TranscodeJob } from '../../core/media/transcoder';

export interface MediaConvertSetup {
  /** The media bucket: sources are read from it and outputs written to it by the job's role. */
  bucket: string;
  /** The role MediaConvert assumes (s3:GetObject on sources, s3:PutObject on outputs). */
  roleArn: string;
  /** This stage's queue; the EventBridge rule matches its ARN, so stages sharing an account stay apart. */
  queueArn: string;
}

/** Job user metadata: how a job state change event finds its item again, and (videos) the output the plan chose,
 * which the COMPLETE event does not describe: its profile, tier and why it is below the request (comma-separated). */
export interface JobUserMetadata {
  userId: string;
  videoId: string;
  kind: TranscodeJob['kind'];
  outputPrefix: string;
  /** The item's transcode revision, as a decimal string (TranscodeJob.revision). */
  revision: string;
  profile?: string;
  tier?: string;
  limitedBy?: string;
}

const audioSelectorName = 'Audio Selector 1';

/** Where MediaConvert writes: a destination ends with the base name, the output adds the extension. */
const s3Url = (bucket: string, key: string) => `s3://${bucket}/${key}`;
const withoutExtension = (key: string) => key.replace(/\.[^./]+$/, '');

/** Linear gain to MediaConvert's remix unit (dB, -60 = muted, rounded to the thousandth as it does). */
const gainDb = (gain: number) => (gain <= 0 ? -60 : Math.max(-60, Math.round(20 * Math.log10(gain) * 1000) / 1000));

export function remixSettings(mix: StereoMix, channels: number): RemixSettings {
  return {
    ChannelsIn: channels,
    ChannelsOut: audioOutput.channels,
    ChannelMapping: { OutputChannels: mix.map((gains) => ({ InputChannelsFineTune: gains.map(gainDb) })) },
  };
}

function audioDescription(remix: RemixSettings | undefined): AudioDescription {
  return {
    AudioSourceName: audioSelectorName,
    CodecSettings: {
      Codec: 'AAC',
      AacSettings: {
        CodecProfile: 'LC',
        CodingMode: 'CODING_MODE_2_0',
        RateControlMode: 'CBR',
        Bitrate: audioOutput.bitrate,
        SampleRate: audioOutput.sampleRate,
        RawFormat: 'NONE',
        Specification: 'MPEG4',
      },
    },
    ...(remix ? { RemixSettings: remix } : {}),
  };
}

/** Same picture handling as ffmpeg: BT.709 colour, deinterlace only interlaced sources, fit with black padding. */
const preprocessors: VideoPreprocessor = {
  ColorCorrector: { ColorSpaceConversion: 'FORCE_709' },
  Deinterlacer: { Algorithm: 'INTERPOLATE', Mode: 'ADAPTIVE', Control: 'NORMAL' },
};

/** MediaConvert's name of an H.264 level: 4.1 is LEVEL_4_1, 5.0 is LEVEL_5. */
const codecLevel = (level: OutputSettings['level']) => `LEVEL_${level.replace(/\.0$/, '').replace('.', '_')}` as H264CodecLevel;

const streamVideo = (output: OutputSettings): VideoDescription => ({
  Width: output.width,
  Height: output.height,
  // DEFAULT is "fit with padding": aspect kept, letterboxed or pillarboxed in black (never cropped or stretched).
  ScalingBehavior: 'DEFAULT',
  Sharpness: 50,
  AfdSignaling: 'NONE',
  RespondToAfd: 'NONE',
  ColorMetadata: 'INSERT',
  TimecodeInsertion: 'DISABLED',
  VideoPreprocessors: preprocessors,
  CodecSettings: {
    Codec: 'H_264',
    H264Settings: {
      CodecProfile: 'HIGH',
      CodecLevel: codecLevel(output.level),
      RateControlMode: 'CBR',
      Bitrate: output.videoBitrate,
      HrdBufferSize: output.bufferBits,
      HrdBufferInitialFillPercentage: videoOutput.bufferInitialFill * 100,
      FramerateControl: 'SPECIFIED',
      FramerateNumerator: output.frameRate,
      FramerateDenominator: 1,
      FramerateConversionAlgorithm: 'DUPLICATE_DROP',
      // A keyframe every 2 s (60 or 120 frames), every GOP closed, none added at scene changes or allowed closer.
      GopSize: output.keyframeIntervalFrames / output.frameRate,
      GopSizeUnits: 'SECONDS',
      GopClosedCadence: 1,
      SceneChangeDetect: 'DISABLED',
      MinIInterval: 0,
      NumberBFramesBetweenReferenceFrames: videoOutput.bFrames,
      GopBReference: 'DISABLED',
      InterlaceMode: 'PROGRESSIVE',
      ParControl: 'SPECIFIED',
      ParNumerator: 1,
      ParDenominator: 1,
      EntropyEncoding: 'CABAC',
      QualityTuningLevel: 'SINGLE_PASS_HQ',
    },
  },
});

function input(job: TranscodeJob, bucket: string, withAudio: boolean): Input {
  return {
    FileInput: s3Url(bucket, job.sourceKey),
    TimecodeSource: 'ZEROBASED',
    VideoSelector: { Rotate: 'AUTO' },
    // Without an audio selector MediaConvert inserts silence for the output's audio: the silent track of a
    // video without sound.
    ...(withAudio ? { AudioSelectors: { [audioSelectorName]: { DefaultSelection: 'DEFAULT' } } } : {}),
  };
}

function videoOutputGroups(job: TranscodeJob, plan: Extract<TranscodePlan, { kind: 'video' }>, bucket: string): OutputGroup[] {
  const keys = outputKeys(job.outputPrefix, 'video');
  const stream: OutputGroup = {
    Name: 'Stream',
    OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: s3Url(bucket, withoutExtension(keys.media)) } },
    Outputs: [
      {
        Extension: 'mp4',
        ContainerSettings: {
          Container: 'MP4',
          // moov first (faststart); audio padded or cut to end with the video (the loop seam).
          Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD', AudioDuration: 'MATCH_VIDEO_DURATION', FreeSpaceBox: 'EXCLUDE' },
        },
        VideoDescription: streamVideo(plan.output),
        AudioDescriptions: [audioDescription(plan.audio === 'silence' ? undefined : remixSettings(plan.audio.mix, plan.audio.channels))],
      },
    ],
  };
  // Frame capture writes <name>.0000000.jpg at the start and then one every interval: with two captures and the
  // interval set to the thumbnail time, the last one (the one the COMPLETE event names) is the thumbnail.
  const thumbnail: OutputGroup = {
    Name: 'Thumbnail',
    OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: s3Url(bucket, withoutExtension(keys.thumbnail!)) } },
    Outputs: [
      {
        Extension: 'jpg',
        ContainerSettings: { Container: 'RAW' },
        VideoDescription: {
          Width: thumbnailOutput.width,
          Height: thumbnailOutput.height,
          ScalingBehavior: 'DEFAULT',
          VideoPreprocessors: preprocessors,
          CodecSettings: {
            Codec: 'FRAME_CAPTURE',
            FrameCaptureSettings: {
              FramerateNumerator: 1000,
              FramerateDenominator: Math.max(1, Math.round(plan.thumbnailAtSeconds * 1000)),
              MaxCaptures: 2,
              Quality: thumbnailOutput.quality,
            },
          },
        },
      },
    ],
  };
  return [stream, thumbnail];
}

function audioOutputGroup(job: TranscodeJob, plan: Extract<TranscodePlan, { kind: 'audio' }>, bucket: string): OutputGroup {
  const keys = outputKeys(job.outputPrefix, 'audio');
  return {
    Name: 'Audio',
    OutputGroupSettings: { Type: 'FILE_GROUP_SETTINGS', FileGroupSettings: { Destination: s3Url(bucket, withoutExtension(keys.media)) } },
    Outputs: [
      {
        Extension: 'm4a',
        ContainerSettings: { Container: 'MP4', Mp4Settings: { MoovPlacement: 'PROGRESSIVE_DOWNLOAD', FreeSpaceBox: 'EXCLUDE' } },
        AudioDescriptions: [audioDescription(remixSettings(plan.audio.mix, plan.audio.channels))],
      },
    ],
  };
}

export function createJobRequest(job: TranscodeJob, plan: TranscodePlan, setup: MediaConvertSetup): CreateJobCommandInput {
  const metadata: JobUserMetadata = {
    userId: job.userId,
    videoId: job.videoId,
    kind: job.kind,
    outputPrefix: job.outputPrefix,
    revision: String(job.revision),
    ...(plan.kind === 'video' ? { profile: plan.output.profile, tier: plan.output.tier, limitedBy: plan.output.limitedBy.join(',') } : {}),
  };
  return {
    Role: setup.roleArn,
    Queue: setup.queueArn,
    // A retried call (Lambda retry, double event) returns the job already created instead of a second one; a
    // quality change is a new revision, so a new job even within MediaConvert's minute.
    ClientRequestToken: `${job.videoId.slice(0, 58)}-r${job.revision}`,
    UserMetadata: { ...metadata },
    // Progress events every 10 s (default: every minute). MediaConvert offers none for audio-only jobs.
    ...(plan.kind === 'video' ? { StatusUpdateInterval: 'SECONDS_10' as const } : {}),
    Settings: {
      TimecodeConfig: { Source: 'ZEROBASED' },
      Inputs: [input(job, setup.bucket, plan.kind === 'audio' || plan.audio !== 'silence')],
      OutputGroups: plan.kind === 'video' ? videoOutputGroups(job, plan, setup.bucket) : [audioOutputGroup(job, plan, setup.bucket)],
    },
  };
}

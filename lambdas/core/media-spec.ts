// The output of "Transcode once" (DESIGN.md step 3), defined once for both transcoders: ffmpeg in the local
// stack (lambdas/adapters/transcoder/ffmpeg-args.ts) and MediaConvert in AWS (mediaconvert-job.ts). Pure: no I/O.
// docs/transcoding.md explains each choice.

export type MediaKind = 'video' | 'audio';

/** Stream-ready video: what `ffmpeg -stream_loop -1 -c copy` sends to YouTube without re-encoding. */
export const videoOutput = {
  fileName: 'stream.mp4',
  width: 1920,
  height: 1080,
  /** Always 30: a whole number of frames per 2 s GOP, the same on both transcoders without probing the rate. */
  frameRate: 30,
  codec: 'h264',
  profile: 'high',
  level: '4.1',
  pixelFormat: 'yuv420p',
  /** Constant bitrate (bits/s) with filler, as YouTube recommends for 1080p30 (3-8 Mbit/s). */
  bitrate: 6_000_000,
  /** HRD (VBV) buffer: two seconds of bitrate, 90 % full at the start. */
  bufferBits: 12_000_000,
  bufferInitialFill: 0.9,
  /** Keyframe (IDR, closed GOP) every 2.000 s exactly; YouTube needs 4 s or less. No scene-cut keyframes. */
  keyframeIntervalSeconds: 2,
  bFrames: 2,
} as const;

export const keyframeIntervalFrames = videoOutput.frameRate * videoOutput.keyframeIntervalSeconds;

/** Every output has this audio; a video without sound gets a silent track so the loop's inputs never change shape. */
export const audioOutput = {
  codec: 'aac',
  profile: 'LC',
  bitrate: 128_000,
  sampleRate: 44_100,
  channels: 2,
} as const;

/** Audio samples per output video frame: 44 100 / 30 = 1470. */
export const audioSamplesPerFrame = audioOutput.sampleRate / videoOutput.frameRate;

/** An AAC frame's samples; the encoder's first frame is priming (encoder delay), which an MP4 edit list hides from
 * players but a stream-copy loop plays and counts. */
export const aacFrameSamples = 1024;

/** The longest audio, in samples, whose AAC frames (priming included) end at least a millisecond before the video of
 * `frameCount` frames does. Copying the file in a loop (stream-task: `-stream_loop -1 -c copy`), ffmpeg advances each
 * pass by the longest track's length; with the audio inside the video's, every pass starts the video exactly where
 * the last one ended and the audio a few tens of milliseconds later than its last frame: decode timestamps always
 * increase (audio as long as the video, as one would naively cut it, makes the next pass's first audio frame land on
 * the previous one's last, and FLV's millisecond timestamps then repeat at every seam). */
export function loopAudioSamples(frameCount: number): number {
  const videoSamples = frameCount * audioSamplesPerFrame;
  const marginSamples = Math.ceil(audioOutput.sampleRate / 1000);
  const framesWithPriming = Math.floor((videoSamples - marginSamples) / aacFrameSamples);
  return (framesWithPriming - 1) * aacFrameSamples;
}

/** Audio-only items (separate audio for a stream): AAC-LC in an MP4 (.m4a) container. */
export const audioOnlyOutput = { fileName: 'stream.m4a' } as const;

export const thumbnailOutput = {
  fileName: 'thumb.jpg',
  width: 1280,
  height: 720,
  /** Where in the video the picture is taken: 10 % in, past black openings and title fades. */
  positionFraction: 0.1,
  /** JPEG quality on MediaConvert's 1-100 scale. */
  quality: 80,
} as const;

/** Shorter sources are not looped videos (a still image probes as a one-frame video). */
export const minimumDurationSeconds = 1;

/**
 * Formats named to users (upload hints). Acceptance is decided by probing the content, never by the file name:
 * whatever ffmpeg (locally) or MediaConvert (AWS) can decode is converted.
 */
export const namedInputFormats = {
  video: ['MP4', 'MOV', 'AVI', 'MKV'],
  audio: ['MP3', 'M4A', 'AAC', 'WAV', 'FLAC', 'OGG'],
} as const;

/** Output object keys under a job's output prefix (the layout of lambdas/contract/buckets.ts). */
export function outputKeys(outputPrefix: string, kind: MediaKind): { media: string; thumbnail?: string } {
  const prefix = outputPrefix.endsWith('/') ? outputPrefix : `${outputPrefix}/`;
  return kind === 'video'
    ? { media: `${prefix}${videoOutput.fileName}`, thumbnail: `${prefix}${thumbnailOutput.fileName}` }
    : { media: `${prefix}${audioOnlyOutput.fileName}` };
}

// ---- What a transcode will store, checked against the plan before it runs (security audit M6) ----

/** The thumbnail's share of an item's storage, at most (a 1280x720 JPEG at quality 80 is 100-300 KB). */
export const THUMBNAIL_ALLOWANCE_BYTES = 512 * 1024;

/** Bytes the outputs of a plan will take: the constant bitrates over its duration, 2 % for the MP4 container, and
 * the thumbnail. The output's size follows the duration, not the source: a 150 KB still-image loop of 6 s is 4.5 MB. */
export function projectedStoredBytes(plan: TranscodePlan): number {
  const bitsPerSecond = plan.kind === 'video' ? videoOutput.bitrate + audioOutput.bitrate : audioOutput.bitrate;
  const media = (plan.durationSeconds * bitsPerSecond) / 8;
  return Math.ceil(media * 1.02) + (plan.kind === 'video' ? THUMBNAIL_ALLOWANCE_BYTES : 0);
}

/** What the owner's plan leaves for one transcode, fixed when it is started. */
export interface TranscodeLimits {
  /** The plan's longest item (PlanLimits.maxMediaSeconds). */
  maxDurationSeconds: number;
  /** The plan's storage minus everything else the owner stores (this item's source not counted: it is replaced). */
  storageBytesLeft: number;
}

/** Why a plan may not run under the limits ('video too long' or 'storage limit'), or undefined when it may. */
export function limitRefusal(plan: TranscodePlan, limits: TranscodeLimits): { key: 'video too long' | 'storage limit'; reason: string } | undefined {
  if (plan.durationSeconds > limits.maxDurationSeconds) {
    return { key: 'video too long', reason: `${Math.round(plan.durationSeconds)} s is longer than the plan's ${limits.maxDurationSeconds} s` };
  }
  const projected = projectedStoredBytes(plan);
  if (projected > limits.storageBytesLeft) {
    return { key: 'storage limit', reason: `the output would take about ${projected} bytes; ${Math.max(0, limits.storageBytesLeft)} are left` };
  }
  return undefined;
}

// ---- What the source is, as either prober (ffprobe or MediaConvert Probe) reports it ----

export interface SourceVideoTrack {
  /** Coded size in pixels, before rotation and sample aspect ratio. */
  width: number;
  height: number;
  /** Pixel width / pixel height (anamorphic sources); 1 when square or unknown. */
  sampleAspectRatio: number;
  /** Display rotation in degrees from the container (phones); the decoders apply it. */
  rotation: number;
  durationSeconds?: number;
}

export interface SourceAudioTrack {
  channels: number;
  durationSeconds?: number;
}

export interface SourceMedia {
  /** The container's duration: the longest track. */
  durationSeconds?: number;
  /** The first video track that is a moving picture (cover art of an MP3 is not). */
  video?: SourceVideoTrack;
  /** The first audio track. */
  audio?: SourceAudioTrack;
}

// ---- The plan: every source-dependent decision, so both transcoders make the same ones ----

/** Linear gain of each source channel in each output channel: `[left gains, right gains]`. */
export type StereoMix = readonly [readonly number[], readonly number[]];

export interface PictureFit {
  /** Size of the scaled picture inside the 1920x1080 frame, and its top-left corner; the rest is black. */
  width: number;
  height: number;
  x: number;
  y: number;
}

export interface VideoPlan {
  kind: 'video';
  /** Output frames: the source video's length at 30 fps. Audio is cut (or padded) to exactly this length. */
  frameCount: number;
  durationSeconds: number;
  picture: PictureFit;
  /** How the source's audio becomes stereo; `silence` when the source has no audio. */
  audio: { mix: StereoMix; channels: number } | 'silence';
  thumbnailAtSeconds: number;
}

export interface AudioPlan {
  kind: 'audio';
  durationSeconds: number;
  audio: { mix: StereoMix; channels: number };
}

export type TranscodePlan = VideoPlan | AudioPlan;

export type PlanResult = { ok: true; plan: TranscodePlan } | { ok: false; reason: string };

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/** Scales the displayed picture to fit the frame with its aspect kept; the rest is padded (letter/pillarbox). */
export function fitPicture(video: SourceVideoTrack, frame = { width: videoOutput.width, height: videoOutput.height }): PictureFit {
  const quarterTurn = Math.abs(video.rotation) % 180 === 90;
  const displayWidth = (quarterTurn ? video.height : video.width) * (quarterTurn ? 1 : video.sampleAspectRatio);
  const displayHeight = (quarterTurn ? video.width : video.height) * (quarterTurn ? video.sampleAspectRatio : 1);
  const scale = Math.min(frame.width / displayWidth, frame.height / displayHeight);
  const width = Math.min(frame.width, even(displayWidth * scale));
  const height = Math.min(frame.height, even(displayHeight * scale));
  // Even offsets keep the 4:2:0 chroma planes aligned with the luma.
  return { width, height, x: 2 * Math.floor((frame.width - width) / 4), y: 2 * Math.floor((frame.height - height) / 4) };
}

/**
 * Stereo from any channel count: mono to both sides; stereo as is; 5.1 (FL FR FC LFE BL BR) by the ITU-R BS.775
 * downmix (centre and surrounds at -3 dB, LFE dropped) scaled so a full-scale sum cannot clip; any other layout
 * keeps its first two channels. Explicit, so ffmpeg and MediaConvert mix identically.
 */
export function stereoMix(channels: number): StereoMix {
  if (channels === 1) return [[1], [1]];
  if (channels === 6) {
    const side = Math.SQRT1_2;
    const norm = 1 / (1 + 2 * side);
    const front = norm;
    const mixed = side * norm;
    return [
      [front, 0, mixed, 0, mixed, 0],
      [0, front, mixed, 0, 0, mixed],
    ];
  }
  const only = (index: number) => Array.from({ length: channels }, (_, i) => (i === index ? 1 : 0));
  return [only(0), only(1)];
}

/** Decides everything source-dependent, or why the source cannot become this kind of item. */
export function planTranscode(kind: MediaKind, source: SourceMedia): PlanResult {
  if (kind === 'audio') {
    if (!source.audio || source.audio.channels < 1) return { ok: false, reason: 'the file has no audio track' };
    const duration = source.audio.durationSeconds ?? source.durationSeconds;
    if (duration === undefined || !(duration >= minimumDurationSeconds)) {
      return { ok: false, reason: `the audio is shorter than ${minimumDurationSeconds} s or has no duration` };
    }
    return {
      ok: true,
      plan: { kind: 'audio', durationSeconds: duration, audio: { mix: stereoMix(source.audio.channels), channels: source.audio.channels } },
    };
  }

  const video = source.video;
  if (!video || video.width < 2 || video.height < 2) return { ok: false, reason: 'the file has no video track' };
  // The video track's own length: a longer audio track must not lengthen the output (it would freeze the loop).
  const duration = video.durationSeconds ?? source.durationSeconds;
  if (duration === undefined || !(duration >= minimumDurationSeconds)) {
    return { ok: false, reason: `the video is shorter than ${minimumDurationSeconds} s or has no duration` };
  }
  const frameCount = Math.round(duration * videoOutput.frameRate);
  const durationSeconds = frameCount / videoOutput.frameRate;
  return {
    ok: true,
    plan: {
      kind: 'video',
      frameCount,
      durationSeconds,
      picture: fitPicture(video),
      audio: source.audio && source.audio.channels >= 1 ? { mix: stereoMix(source.audio.channels), channels: source.audio.channels } : 'silence',
      thumbnailAtSeconds: Math.round(durationSeconds * thumbnailOutput.positionFraction * 1000) / 1000,
    },
  };
}

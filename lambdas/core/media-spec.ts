// The output of "Transcode once" (DESIGN.md step 3), defined once for both transcoders: ffmpeg in the local
// stack (lambdas/adapters/transcoder/ffmpeg-args.ts) and MediaConvert in AWS (mediaconvert-job.ts). Pure: no I/O.
// docs/transcoding.md explains each choice.

export type MediaKind = 'video' | 'audio';

/** Stream-ready video: what `ffmpeg -stream_loop -1 -c copy` sends without re-encoding. What is the same for every
 * output profile; size, frame rate, level and bitrate come from the profile (outputProfiles). */
export const videoOutput = {
  fileName: 'stream.mp4',
  codec: 'h264',
  profile: 'high',
  pixelFormat: 'yuv420p',
  /** HRD (VBV) buffer: this many seconds of the bitrate, 90 % full at the start. */
  bufferSeconds: 2,
  bufferInitialFill: 0.9,
  /** Keyframe (IDR, closed GOP) every 2.000 s exactly; YouTube needs 4 s or less. No scene-cut keyframes. */
  keyframeIntervalSeconds: 2,
  bFrames: 2,
} as const;

// ---- The output ladder: the profiles a creator chooses from, each with bitrate tiers ----

/** Output frame rates: 30 and 60 are whole numbers of frames per 2 s GOP on both transcoders without probing
 * anything but the source's nominal rate. 60 only where the profile allows it and the source has it. */
export type OutputFrameRate = 30 | 60;

/** Ladder order: lowest first. */
export const outputProfileIds = ['720p30', '1080p30', '1080p60', '1440p30', '1440p60', '2160p30', '2160p60'] as const;
export type OutputProfileId = (typeof outputProfileIds)[number];

/** The creator's bitrate choice within a profile: `low` is the default (egress is most of a stream's cost). */
export const bitrateTiers = ['low', 'medium', 'high'] as const;
export type BitrateTier = (typeof bitrateTiers)[number];

export interface OutputProfile {
  id: OutputProfileId;
  width: number;
  height: number;
  frameRate: OutputFrameRate;
  /** The lowest H.264 level whose frame size, macroblock rate, bitrate and buffer hold this profile at its high tier. */
  level: '3.1' | '4.1' | '4.2' | '5.0' | '5.1' | '5.2';
  /** Video bits per second of each tier. */
  bitrates: Record<BitrateTier, number>;
  /** YouTube's published ingest range for this resolution and rate (bits/s), which every tier lies in. */
  youtubeRange: readonly [number, number];
}

const Mbps = 1_000_000;
/** Tiers: the floor of YouTube's H.264 range for the rung (never below its current minimum), 1.5 and 2 times it.
 * 1080p30's 3 / 4.5 / 6 Mbit/s are the issue's; 60 fps is 1.5 times 30 fps, as YouTube's tables have it. */
const tiers = (low: number): Record<BitrateTier, number> => ({
  low: Math.round(low * Mbps),
  medium: Math.round(low * 1.5 * Mbps),
  high: Math.round(low * 2 * Mbps),
});

const profile = (
  id: OutputProfileId,
  width: number,
  height: number,
  frameRate: OutputFrameRate,
  level: OutputProfile['level'],
  lowMbps: number,
  range: [number, number],
): OutputProfile => ({
  id,
  width,
  height,
  frameRate,
  level,
  bitrates: tiers(lowMbps),
  youtubeRange: [range[0] * Mbps, range[1] * Mbps],
});

/** docs/transcoding.md, "Output profiles", has the sources of every number. */
export const outputProfiles: Record<OutputProfileId, OutputProfile> = {
  '720p30': profile('720p30', 1280, 720, 30, '3.1', 3, [3, 8]),
  '1080p30': profile('1080p30', 1920, 1080, 30, '4.1', 3, [3, 8]),
  '1080p60': profile('1080p60', 1920, 1080, 60, '4.2', 4.5, [4, 10]),
  '1440p30': profile('1440p30', 2560, 1440, 30, '5.0', 6, [5, 25]),
  '1440p60': profile('1440p60', 2560, 1440, 60, '5.1', 9, [6, 30]),
  '2160p30': profile('2160p30', 3840, 2160, 30, '5.1', 13, [8, 35]),
  '2160p60': profile('2160p60', 3840, 2160, 60, '5.2', 20, [10, 40]),
};

export const isOutputProfileId = (value: unknown): value is OutputProfileId =>
  typeof value === 'string' && (outputProfileIds as readonly string[]).includes(value);
export const isBitrateTier = (value: unknown): value is BitrateTier => typeof value === 'string' && (bitrateTiers as readonly string[]).includes(value);

/** What the creator asks for: the highest profile wanted and the tier. */
export interface QualityChoice {
  profile: OutputProfileId;
  tier: BitrateTier;
}

/** Full HD at 30 fps, as every plan has, at the lowest tier. */
export const defaultQuality: QualityChoice = { profile: '1080p30', tier: 'low' };

/** Why the output is below what was asked: the source is smaller (no upscaling), the source has 30 fps or fewer
 * (frames are never doubled), or the owner's plan does not include the profile. */
export type OutputLimit = 'source size' | 'source frame rate' | 'plan';

/** The output one transcode makes: the profile chosen and the tier's numbers. */
export interface OutputSettings {
  profile: OutputProfileId;
  tier: BitrateTier;
  width: number;
  height: number;
  frameRate: OutputFrameRate;
  level: OutputProfile['level'];
  /** Constant video bitrate, bits/s. */
  videoBitrate: number;
  bufferBits: number;
  keyframeIntervalFrames: number;
  /** Empty when the output is what was asked. */
  limitedBy: OutputLimit[];
}

export function outputSettings(id: OutputProfileId, tier: BitrateTier, limitedBy: OutputLimit[] = []): OutputSettings {
  const { width, height, frameRate, level, bitrates } = outputProfiles[id];
  const videoBitrate = bitrates[tier];
  return {
    profile: id,
    tier,
    width,
    height,
    frameRate,
    level,
    videoBitrate,
    bufferBits: videoBitrate * videoOutput.bufferSeconds,
    keyframeIntervalFrames: frameRate * videoOutput.keyframeIntervalSeconds,
    limitedBy,
  };
}

/** A source at this rate or above is "high frame rate" (48, 50, 59.94, 60, 120 fps): kept at 60 where allowed. */
export const HIGH_FRAME_RATE_MIN = 45;

/** How much a picture may be enlarged and still count as not upscaled: crops a few pixels short of a standard
 * size (1916x1076) belong to its rung. */
const UPSCALE_TOLERANCE = 1.02;

/** The source's picture as displayed: rotation and sample aspect ratio applied. */
export function displaySize(video: SourceVideoTrack): { width: number; height: number } {
  const quarterTurn = Math.abs(video.rotation) % 180 === 90;
  return {
    width: (quarterTurn ? video.height : video.width) * (quarterTurn ? 1 : video.sampleAspectRatio),
    height: (quarterTurn ? video.width : video.height) * (quarterTurn ? video.sampleAspectRatio : 1),
  };
}

/** True when fitting the source into the profile's frame does not enlarge it. */
const fitsWithoutUpscaling = (video: SourceVideoTrack, target: OutputProfile): boolean => {
  const shown = displaySize(video);
  return Math.min(target.width / shown.width, target.height / shown.height) <= UPSCALE_TOLERANCE;
};

/**
 * The profile a transcode makes: the highest rung of the ladder not above the one asked (in size and in rate) that
 * the plan allows, that does not enlarge the source and that does not invent frames (60 fps only from a high frame
 * rate source; a 60 fps source on a 30 fps profile is halved). A source smaller than the lowest rung gets the lowest
 * rung. The tier asked is kept. `limitedBy` says why the result is below the request.
 */
export function chooseOutput(choice: QualityChoice, video: SourceVideoTrack, allowed: readonly OutputProfileId[]): OutputSettings {
  const asked = outputProfiles[choice.profile];
  const highFrameRate = (video.frameRate ?? 0) >= HIGH_FRAME_RATE_MIN;
  const withinAsk = outputProfileIds.map((id) => outputProfiles[id]).filter((p) => p.height <= asked.height && p.frameRate <= asked.frameRate);
  const possible = withinAsk.filter((p) => allowed.includes(p.id) && (p.frameRate === 30 || highFrameRate));
  const chosen = possible.filter((p) => fitsWithoutUpscaling(video, p)).at(-1) ?? possible[0] ?? outputProfiles[outputProfileIds[0]];
  const limitedBy: OutputLimit[] = [];
  if (chosen.height < asked.height && !fitsWithoutUpscaling(video, asked)) limitedBy.push('source size');
  if (chosen.frameRate < asked.frameRate && !highFrameRate) limitedBy.push('source frame rate');
  if (!allowed.includes(asked.id) && chosen.id !== asked.id) limitedBy.push('plan');
  return outputSettings(chosen.id, choice.tier, limitedBy);
}

/** Every output has this audio; a video without sound gets a silent track so the loop's inputs never change shape. */
export const audioOutput = {
  codec: 'aac',
  profile: 'LC',
  bitrate: 128_000,
  sampleRate: 44_100,
  channels: 2,
} as const;

/** Audio samples per output video frame: 44 100 / 30 = 1470, 44 100 / 60 = 735. */
export const audioSamplesPerFrame = (frameRate: OutputFrameRate): number => audioOutput.sampleRate / frameRate;

/** An AAC frame's samples; the encoder's first frame is priming (encoder delay), which an MP4 edit list hides from
 * players but a stream-copy loop plays and counts. */
export const aacFrameSamples = 1024;

/** The longest audio, in samples, whose AAC frames (priming included) end at least a millisecond before the video of
 * `frameCount` frames at `frameRate` does. Copying the file in a loop (stream-task: `-stream_loop -1 -c copy`),
 * ffmpeg advances each pass by the longest track's length; with the audio inside the video's, every pass starts the
 * video exactly where the last one ended and the audio a few tens of milliseconds later than its last frame: decode
 * timestamps always increase (audio as long as the video, as one would naively cut it, makes the next pass's first
 * audio frame land on the previous one's last, and FLV's millisecond timestamps then repeat at every seam). */
export function loopAudioSamples(frameCount: number, frameRate: OutputFrameRate): number {
  const videoSamples = frameCount * audioSamplesPerFrame(frameRate);
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

/** The MP4 container's share on top of the media bitrates. */
const CONTAINER_OVERHEAD = 1.02;

/** Bytes a stream-ready file of this video bitrate takes per second: video, audio and the container. */
export const storedBytesPerSecond = (videoBitrate: number): number => ((videoBitrate + audioOutput.bitrate) / 8) * CONTAINER_OVERHEAD;

/** Bytes the outputs of a plan will take: the constant bitrates over its duration, 2 % for the MP4 container, and
 * the thumbnail. The output's size follows the duration, not the source: a 150 KB still-image loop of 6 s is 2.3 MB
 * at 3 Mbit/s. */
export function projectedStoredBytes(plan: TranscodePlan): number {
  if (plan.kind === 'audio') return Math.ceil(((plan.durationSeconds * audioOutput.bitrate) / 8) * CONTAINER_OVERHEAD);
  return Math.ceil(plan.durationSeconds * storedBytesPerSecond(plan.output.videoBitrate)) + THUMBNAIL_ALLOWANCE_BYTES;
}

/** What the owner's plan leaves for one transcode, fixed when it is started. */
export interface TranscodeLimits {
  /** The plan's longest item (PlanLimits.maxMediaSeconds). */
  maxDurationSeconds: number;
  /** The plan's storage minus everything else the owner stores (this item's source not counted: it is replaced). */
  storageBytesLeft: number;
  /** The profiles the plan includes (PlanLimits.outputProfiles). */
  outputProfiles: readonly OutputProfileId[];
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
  /** Nominal frames per second (average for variable-rate phone videos); unknown is treated as 30 or fewer. */
  frameRate?: number;
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
  /** Size of the scaled picture inside the output frame, and its top-left corner; the rest is black. */
  width: number;
  height: number;
  x: number;
  y: number;
}

export interface VideoPlan {
  kind: 'video';
  /** The profile and tier made (chooseOutput). */
  output: OutputSettings;
  /** Output frames: the source video's length at the output's frame rate. Audio is cut (or padded) to end just
   * inside them (loopAudioSamples). */
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
export function fitPicture(video: SourceVideoTrack, frame: { width: number; height: number }): PictureFit {
  const { width: displayWidth, height: displayHeight } = displaySize(video);
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

/** What the creator asked for and what the plan allows. */
export interface OutputRequest {
  quality: QualityChoice;
  allowed: readonly OutputProfileId[];
}

/** Decides everything source-dependent, or why the source cannot become this kind of item. */
export function planTranscode(kind: MediaKind, source: SourceMedia, request: OutputRequest): PlanResult {
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
  const output = chooseOutput(request.quality, video, request.allowed);
  const frameCount = Math.round(duration * output.frameRate);
  const durationSeconds = frameCount / output.frameRate;
  return {
    ok: true,
    plan: {
      kind: 'video',
      output,
      frameCount,
      durationSeconds,
      picture: fitPicture(video, output),
      audio: source.audio && source.audio.channels >= 1 ? { mix: stereoMix(source.audio.channels), channels: source.audio.channels } : 'silence',
      thumbnailAtSeconds: Math.round(durationSeconds * thumbnailOutput.positionFraction * 1000) / 1000,
    },
  };
}

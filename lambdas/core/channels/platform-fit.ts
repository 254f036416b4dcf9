// Whether a stream's video suits the platforms its destinations go to (lambdas/contract/destination-presets.ts):
// beyond a platform's `required` limits the video cannot stream there (the API refuses the stream with
// 'destination limits exceeded'); beyond its `recommended` ones it streams, with advice the creator sees. Checked
// against the video item's own stream-ready properties, so it holds for whatever output profile made the item.
// Pure (the web app runs the same functions for its warnings); `adviseDestinations` reads through small ports.
import {
  isDestinationPresetId,
  presetById,
  destinationPresets,
  type DestinationPreset,
  type DestinationPresetId,
  type FrameSize,
  type VideoLimits,
} from '../../contract/destination-presets';
import { AppError } from '../errors';

/** What a stream sends: the stream-ready file's video track (stream copy: the platform gets exactly this). */
export interface StreamReadyVideo {
  width: number;
  height: number;
  frameRate: number;
  /** Video track bitrate, bits/s. */
  videoBitrate: number;
  keyframeIntervalSeconds: number;
}

/** Items transcoded before output profiles have no stored frame rate, bitrate or keyframe interval: they are all
 * 1920x1080 at 30 fps, 6 Mbit/s constant, a keyframe every 2 s (the single output of that time). */
const BEFORE_OUTPUT_PROFILES = { frameRate: 30, videoBitrate: 6_000_000, keyframeIntervalSeconds: 2 } as const;

/** The fields of a video item (lambdas/core/media/videos.ts) this check reads; the ones output profiles add are
 * optional, so older items are read as what they are. */
export interface VideoItemProperties {
  status: string;
  width?: number;
  height?: number;
  frameRate?: number;
  videoBitrate?: number;
  keyframeIntervalSeconds?: number;
}

/** The stream-ready properties of a ready item, or undefined while it has none (encoding, failed, audio). */
export function streamReadyVideoOf(item: VideoItemProperties): StreamReadyVideo | undefined {
  if (item.status !== 'ready' || !item.width || !item.height) return undefined;
  return {
    width: item.width,
    height: item.height,
    frameRate: item.frameRate ?? BEFORE_OUTPUT_PROFILES.frameRate,
    videoBitrate: item.videoBitrate ?? BEFORE_OUTPUT_PROFILES.videoBitrate,
    keyframeIntervalSeconds: item.keyframeIntervalSeconds ?? BEFORE_OUTPUT_PROFILES.keyframeIntervalSeconds,
  };
}

/** One way the video differs from a platform's limit: what the video has against what the platform allows. */
export type Finding =
  | { limit: 'frame'; actual: FrameSize; max: FrameSize }
  | { limit: 'frameRate'; actual: number; max: number }
  | { limit: 'bitrate'; actual: number; max: number }
  | { limit: 'bitrate'; actual: number; min: number }
  | { limit: 'keyframeInterval'; actual: number; max: number }
  | { limit: 'portrait' };

const frameOf = (video: StreamReadyVideo): FrameSize => ({ long: Math.max(video.width, video.height), short: Math.min(video.width, video.height) });

/** Every limit of `limits` the video is beyond. */
export function findingsAgainst(limits: VideoLimits, video: StreamReadyVideo): Finding[] {
  const findings: Finding[] = [];
  const actual = frameOf(video);
  if (limits.maxFrame && (actual.long > limits.maxFrame.long || actual.short > limits.maxFrame.short)) {
    findings.push({ limit: 'frame', actual, max: limits.maxFrame });
  }
  if (limits.maxFrameRate !== undefined && video.frameRate > limits.maxFrameRate)
    findings.push({ limit: 'frameRate', actual: video.frameRate, max: limits.maxFrameRate });
  if (limits.maxVideoBitrate !== undefined && video.videoBitrate > limits.maxVideoBitrate) {
    findings.push({ limit: 'bitrate', actual: video.videoBitrate, max: limits.maxVideoBitrate });
  } else {
    // The first format that holds the video (rows go from small to large) gives its range.
    const format = limits.bitrateByFormat?.find((row) => actual.short <= row.height && video.frameRate <= row.frameRate);
    if (format && video.videoBitrate > format.maxVideoBitrate) findings.push({ limit: 'bitrate', actual: video.videoBitrate, max: format.maxVideoBitrate });
    else if (format?.minVideoBitrate !== undefined && video.videoBitrate < format.minVideoBitrate)
      findings.push({ limit: 'bitrate', actual: video.videoBitrate, min: format.minVideoBitrate });
  }
  if (limits.maxKeyframeIntervalSeconds !== undefined && video.keyframeIntervalSeconds > limits.maxKeyframeIntervalSeconds) {
    findings.push({ limit: 'keyframeInterval', actual: video.keyframeIntervalSeconds, max: limits.maxKeyframeIntervalSeconds });
  }
  if (limits.portrait && video.width > video.height) findings.push({ limit: 'portrait' });
  return findings;
}

export interface PlatformFit {
  /** Beyond what the platform accepts: the stream cannot go there. */
  refusals: Finding[];
  /** Outside what the platform advises (limits already refused are not repeated). */
  advice: Finding[];
}

export function platformFit(preset: DestinationPreset, video: StreamReadyVideo): PlatformFit {
  const refusals = findingsAgainst(preset.required, video);
  const refused = new Set(refusals.map((finding) => finding.limit));
  return { refusals, advice: findingsAgainst(preset.recommended, video).filter((finding) => !refused.has(finding.limit)) };
}

/** The platform a server URL belongs to by its host name (or a subdomain of it), else 'custom'. */
export function presetOfUrl(rtmpUrl: string | undefined): DestinationPresetId {
  let host: string;
  try {
    host = new URL(rtmpUrl ?? '').hostname.toLowerCase();
  } catch {
    return 'custom';
  }
  const owner = destinationPresets.find((preset) => preset.hosts.some((name) => host === name || host.endsWith(`.${name}`)));
  return owner?.id ?? 'custom';
}

/** A destination's platform: the one the creator chose, else a YouTube account's, else the server URL's. */
export function presetOfChannel(channel: { kind: string; preset?: string; rtmpUrl?: string }): DestinationPresetId {
  if (isDestinationPresetId(channel.preset)) return channel.preset;
  return channel.kind === 'youtube' ? 'youtube' : presetOfUrl(channel.rtmpUrl);
}

/** An rtmp:// server for a platform that takes RTMPS only is refused when the destination is saved. */
export function assertProtocolFits(preset: DestinationPresetId, rtmpUrl: string): void {
  if (presetById(preset).rtmpsRequired && !rtmpUrl.startsWith('rtmps://'))
    throw new AppError('platform requires rtmps', { fields: { url: 'must start with rtmps://' }, preset });
}

/** Advice for one destination of a stream. */
export interface DestinationAdvice {
  channelId: string;
  preset: DestinationPresetId;
  findings: Finding[];
}

export interface PlatformFitContext {
  channels: { get(userId: string, channelId: string): Promise<{ id: string; kind: string; preset?: string; rtmpUrl?: string } | undefined> };
  videos: { get(userId: string, videoId: string): Promise<VideoItemProperties | undefined> };
}

/**
 * Checks a stream's video against each of its destinations' platforms: refuses ('destination limits exceeded',
 * naming the destination, its platform and what is beyond its limits) when the video cannot stream to one, and
 * answers the advice otherwise. Nothing to check while the video has no stream-ready properties yet (encoding):
 * the check runs again when the stream is started or edited.
 */
export async function adviseDestinations(
  context: PlatformFitContext,
  userId: string,
  stream: { videoId?: string; channelIds: readonly string[] },
): Promise<DestinationAdvice[]> {
  const item = stream.videoId ? await context.videos.get(userId, stream.videoId) : undefined;
  const video = item && streamReadyVideoOf(item);
  if (!video) return [];
  const advice: DestinationAdvice[] = [];
  for (const channelId of stream.channelIds) {
    const channel = await context.channels.get(userId, channelId);
    if (!channel) continue;
    const preset = presetOfChannel(channel);
    const fit = platformFit(presetById(preset), video);
    if (fit.refusals.length) throw new AppError('destination limits exceeded', { channelId, preset, findings: fit.refusals });
    if (fit.advice.length) advice.push({ channelId, preset, findings: fit.advice });
  }
  return advice;
}

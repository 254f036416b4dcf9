import { destinationPresets, presetById, type DestinationPresetId } from '../../contract/destination-presets';
import { AppError } from '../errors';
import { normalizeRtmpUrl } from './channel';
import { DESTINATION_PORTS, destinationPort } from './destination-address';
import { adviseDestinations, assertProtocolFits, platformFit, presetOfChannel, presetOfUrl, streamReadyVideoOf, type StreamReadyVideo } from './platform-fit';

const Mbps = 1_000_000;
const video = (width: number, height: number, frameRate: number, megabits: number, keyframeIntervalSeconds = 2): StreamReadyVideo => ({
  width,
  height,
  frameRate,
  videoBitrate: megabits * Mbps,
  keyframeIntervalSeconds,
});
const fitOf = (id: DestinationPresetId, v: StreamReadyVideo) => platformFit(presetById(id), v);
const limits = (findings: { limit: string }[]) => findings.map((finding) => finding.limit);

describe('the presets table', () => {
  test.each(destinationPresets.filter((preset) => preset.ingest.kind === 'fixed').map((preset) => [preset.id, preset]))(
    '%s: its server URL is one a destination takes, on a port stream tasks may dial, of its own hosts, RTMPS where required',
    (_, preset) => {
      const url = (preset.ingest as { url: string }).url;
      expect(() => normalizeRtmpUrl(url)).not.toThrow();
      expect(DESTINATION_PORTS).toContain(destinationPort(new URL(url)));
      expect(presetOfUrl(url)).toBe(preset.id);
      expect(() => assertProtocolFits(preset.id, normalizeRtmpUrl(url))).not.toThrow();
    },
  );

  test('every platform but Custom links its own page, over HTTPS, and names its sources; ids are unique', () => {
    for (const preset of destinationPresets.filter((p) => p.id !== 'custom')) {
      expect(preset.helpUrl).toMatch(/^https:\/\/[^/]+\//);
      expect(preset.sources.length).toBeGreaterThan(0);
    }
    expect(new Set(destinationPresets.map((preset) => preset.id)).size).toBe(destinationPresets.length);
  });

  test('a required limit is never tighter than the advice for it', () => {
    for (const { required, recommended } of destinationPresets) {
      if (required.maxVideoBitrate && recommended.maxVideoBitrate) expect(recommended.maxVideoBitrate).toBeLessThanOrEqual(required.maxVideoBitrate);
      if (required.maxFrameRate && recommended.maxFrameRate) expect(recommended.maxFrameRate).toBeLessThanOrEqual(required.maxFrameRate);
      if (required.maxKeyframeIntervalSeconds && recommended.maxKeyframeIntervalSeconds)
        expect(recommended.maxKeyframeIntervalSeconds).toBeLessThanOrEqual(required.maxKeyframeIntervalSeconds);
    }
  });

  test('Facebook, Instagram and Kick take RTMPS only', () => {
    expect(destinationPresets.filter((preset) => preset.rtmpsRequired).map((preset) => preset.id)).toEqual(['facebook', 'kick', 'instagram']);
  });
});

describe('a video against a platform', () => {
  const legacy = video(1920, 1080, 30, 6);

  test('the 1080p30 6 Mbit/s output of before profiles streams everywhere; some platforms advise otherwise', () => {
    for (const preset of destinationPresets) expect(platformFit(preset, legacy).refusals).toEqual([]);
    expect(fitOf('youtube', legacy).advice).toEqual([]);
    expect(fitOf('facebook', legacy).advice).toEqual([]);
    expect(fitOf('twitch', legacy).advice).toEqual([]);
    expect(fitOf('instagram', legacy).advice).toEqual([
      { limit: 'frame', actual: { long: 1920, short: 1080 }, max: { long: 1280, short: 720 } },
      { limit: 'portrait' },
    ]);
    expect(fitOf('vimeo', legacy).advice).toEqual([{ limit: 'bitrate', actual: 6 * Mbps, max: 5 * Mbps }]);
    expect(limits(fitOf('linkedin', legacy).advice)).toEqual(['frame']);
  });

  test('4K at 60 fps: YouTube takes it; Facebook and Kick cannot; Twitch advises against it', () => {
    const uhd = video(3840, 2160, 60, 20);
    expect(fitOf('youtube', uhd)).toEqual({ refusals: [], advice: [] });
    expect(fitOf('facebook', uhd).refusals).toEqual([
      { limit: 'frame', actual: { long: 3840, short: 2160 }, max: { long: 1920, short: 1080 } },
      { limit: 'bitrate', actual: 20 * Mbps, max: 9 * Mbps },
    ]);
    expect(limits(fitOf('kick', uhd).refusals)).toEqual(['frame', 'bitrate']);
    expect(fitOf('twitch', uhd)).toEqual({
      refusals: [],
      advice: [expect.objectContaining({ limit: 'frame' }), expect.objectContaining({ limit: 'bitrate' })],
    });
  });

  test("a platform's bitrate range for the format: above its top and below its bottom are advice", () => {
    expect(fitOf('youtube', video(1280, 720, 30, 2)).advice).toEqual([{ limit: 'bitrate', actual: 2 * Mbps, min: 3 * Mbps }]);
    expect(fitOf('youtube', video(1920, 1080, 30, 9)).advice).toEqual([{ limit: 'bitrate', actual: 9 * Mbps, max: 8 * Mbps }]);
    expect(fitOf('youtube', video(1920, 1080, 60, 9)).advice).toEqual([]);
    expect(fitOf('facebook', video(1280, 720, 60, 5)).advice).toEqual([]);
    expect(fitOf('facebook', video(1280, 720, 30, 5)).advice).toEqual([{ limit: 'bitrate', actual: 5 * Mbps, max: 4 * Mbps }]);
  });

  test('keyframes further apart than a platform allows cannot stream there; further than it advises is advice', () => {
    expect(fitOf('youtube', video(1920, 1080, 30, 6, 5)).refusals).toEqual([{ limit: 'keyframeInterval', actual: 5, max: 4 }]);
    expect(fitOf('youtube', video(1920, 1080, 30, 6, 3)).advice).toEqual([{ limit: 'keyframeInterval', actual: 3, max: 2 }]);
    expect(fitOf('twitch', video(1920, 1080, 30, 6, 3)).refusals).toEqual([{ limit: 'keyframeInterval', actual: 3, max: 2 }]);
    expect(limits(fitOf('twitch', video(1920, 1080, 30, 6, 3)).advice)).toEqual([]);
  });

  test('a portrait frame is measured by its sides, whichever way up', () => {
    expect(fitOf('instagram', video(720, 1280, 30, 4)).advice).toEqual([]);
    expect(fitOf('facebook', video(1080, 1920, 30, 6)).refusals).toEqual([]);
  });

  test('Custom has no limits', () => {
    expect(fitOf('custom', video(7680, 4320, 120, 100, 10))).toEqual({ refusals: [], advice: [] });
  });
});

describe('stream-ready properties of a video item', () => {
  test('an item made before output profiles is 30 fps, 6 Mbit/s, a keyframe every 2 s; its stored size counts', () => {
    expect(streamReadyVideoOf({ status: 'ready', width: 1920, height: 1080 })).toEqual(video(1920, 1080, 30, 6));
  });

  test("an item's own properties count when it has them", () => {
    expect(streamReadyVideoOf({ status: 'ready', width: 3840, height: 2160, frameRate: 60, videoBitrate: 20 * Mbps, keyframeIntervalSeconds: 2 })).toEqual(
      video(3840, 2160, 60, 20),
    );
  });

  test('nothing to check while encoding, failed, or without a picture', () => {
    expect(streamReadyVideoOf({ status: 'encoding' })).toBeUndefined();
    expect(streamReadyVideoOf({ status: 'failed', width: 1920, height: 1080 })).toBeUndefined();
    expect(streamReadyVideoOf({ status: 'ready' })).toBeUndefined();
  });
});

describe("a destination's platform", () => {
  test.each([
    ['rtmp://live-fra.twitch.tv/app', 'twitch'],
    ['rtmp://a.rtmp.youtube.com/live2', 'youtube'],
    ['rtmps://b.rtmps.youtube.com:443/live2', 'youtube'],
    ['rtmps://live-api-s.facebook.com:443/rtmp', 'facebook'],
    ['rtmps://va.pscp.tv:443/x', 'x'],
    ['rtmp://abc.live.rmbl.ws/slot-1', 'rumble'],
    ['rtmp://notyoutube.com/live', 'custom'],
    ['rtmp://127.0.0.1:1935/live', 'custom'],
    ['not a url', 'custom'],
  ])('%s is %s', (url, preset) => {
    expect(presetOfUrl(url)).toBe(preset);
  });

  test("the creator's pick wins; a YouTube account is YouTube; else the server URL says", () => {
    expect(presetOfChannel({ kind: 'rtmp', preset: 'instagram', rtmpUrl: 'rtmps://edge.example/rtmp' })).toBe('instagram');
    expect(presetOfChannel({ kind: 'youtube', rtmpUrl: 'rtmp://a.rtmp.youtube.com/live2' })).toBe('youtube');
    expect(presetOfChannel({ kind: 'rtmp', rtmpUrl: 'rtmp://live.twitch.tv/app' })).toBe('twitch');
    expect(presetOfChannel({ kind: 'rtmp', preset: 'nonsense', rtmpUrl: 'rtmp://x.example/live' })).toBe('custom');
  });

  test('an rtmp:// server for a platform that takes RTMPS only is refused', () => {
    expect(() => assertProtocolFits('facebook', 'rtmp://live-api-s.facebook.com/rtmp')).toThrow(expect.objectContaining({ key: 'platform requires rtmps' }));
    expect(() => assertProtocolFits('twitch', 'rtmp://live.twitch.tv/app')).not.toThrow();
  });
});

describe('a stream against its destinations', () => {
  const context = (item: Record<string, unknown> | undefined) => ({
    videos: { get: async () => item as never },
    channels: {
      get: async (_: string, id: string) =>
        ({
          yt: { id, kind: 'youtube' },
          fb: { id, kind: 'rtmp', rtmpUrl: 'rtmps://live-api-s.facebook.com:443/rtmp' },
          ig: { id, kind: 'rtmp', preset: 'instagram', rtmpUrl: 'rtmps://i.example/rtmp' },
        })[id],
    },
  });

  test('a video beyond what a destination accepts is refused, naming the destination, its platform and the limits', async () => {
    const uhd = { status: 'ready', width: 3840, height: 2160, frameRate: 60, videoBitrate: 20 * Mbps };
    const refusal = await adviseDestinations(context(uhd), 'u1', { videoId: 'v1', channelIds: ['yt', 'fb'] }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      key: 'destination limits exceeded',
      status: 422,
      details: { channelId: 'fb', preset: 'facebook', findings: [expect.objectContaining({ limit: 'frame' }), expect.objectContaining({ limit: 'bitrate' })] },
    });
  });

  test('otherwise the advice of each destination that has some', async () => {
    const advice = await adviseDestinations(context({ status: 'ready', width: 1920, height: 1080 }), 'u1', {
      videoId: 'v1',
      channelIds: ['yt', 'fb', 'ig', 'gone'],
    });
    expect(advice).toEqual([{ channelId: 'ig', preset: 'instagram', findings: [expect.objectContaining({ limit: 'frame' }), { limit: 'portrait' }] }]);
  });

  test('nothing to check without a video or while it encodes', async () => {
    expect(await adviseDestinations(context(undefined), 'u1', { channelIds: ['fb'] })).toEqual([]);
    expect(await adviseDestinations(context({ status: 'encoding' }), 'u1', { videoId: 'v1', channelIds: ['fb'] })).toEqual([]);
  });
});

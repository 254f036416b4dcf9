import { describe, expect, test } from '@jest/globals';
import {
  aacFrameSamples,
  audioSamplesPerFrame,
  bitrateTiers,
  chooseOutput,
  defaultQuality,
  fitPicture,
  loopAudioSamples,
  outputKeys,
  outputProfileIds,
  outputProfiles,
  outputSettings,
  planTranscode,
  projectedStoredBytes,
  stereoMix,
  storedBytesPerSecond,
  type BitrateTier,
  type OutputProfileId,
  type SourceMedia,
  type SourceVideoTrack,
} from './media-spec';

const track = (width: number, height: number, extra: Partial<SourceVideoTrack> = {}): SourceVideoTrack => ({
  width,
  height,
  sampleAspectRatio: 1,
  rotation: 0,
  ...extra,
});

const full1080 = { width: 1920, height: 1080 };
const everyProfile = outputProfileIds;
const request = (profile: OutputProfileId = '1080p30', tier: BitrateTier = 'low', allowed: readonly OutputProfileId[] = everyProfile) => ({
  quality: { profile, tier },
  allowed,
});

describe('fixed numbers the loop depends on', () => {
  test('a keyframe every 2 s is a whole number of frames at both output rates, within YouTube 4 s limit', () => {
    expect(outputSettings('1080p30', 'low').keyframeIntervalFrames).toBe(60);
    expect(outputSettings('1080p60', 'low').keyframeIntervalFrames).toBe(120);
    for (const id of outputProfileIds) {
      const settings = outputSettings(id, 'high');
      expect(settings.keyframeIntervalFrames / settings.frameRate).toBe(2);
    }
  });

  test('44.1 kHz audio has a whole number of samples per video frame at 30 and at 60 fps', () => {
    expect(audioSamplesPerFrame(30)).toBe(1470);
    expect(audioSamplesPerFrame(60)).toBe(735);
  });

  test.each([30, 60] as const)('the audio of a loop at %i fps: whole AAC frames, priming included, ending 1 to 24 ms inside the video', (rate) => {
    for (const frames of [30, 60, 61, 150, 1799, 108_000, 216_001]) {
      const samples = loopAudioSamples(frames, rate);
      expect(samples % aacFrameSamples).toBe(0);
      const spare = frames * audioSamplesPerFrame(rate) - (samples + aacFrameSamples);
      expect(spare).toBeGreaterThanOrEqual(44);
      expect(spare).toBeLessThan(aacFrameSamples + 44);
    }
    expect(loopAudioSamples(60, 30)).toBe(87_040);
    expect(loopAudioSamples(120, 60)).toBe(87_040);
  });
});

describe('the output ladder', () => {
  test("rungs go up in size, then rate; every tier is inside YouTube's published range and 1080p30 is 3 / 4.5 / 6 Mbit/s", () => {
    expect(outputProfileIds).toEqual(['720p30', '1080p30', '1080p60', '1440p30', '1440p60', '2160p30', '2160p60']);
    const rungs = outputProfileIds.map((id) => outputProfiles[id]);
    for (const [lower, higher] of rungs.slice(0, -1).map((rung, i) => [rung, rungs[i + 1]!] as const)) {
      expect(higher.height > lower.height || (higher.height === lower.height && higher.frameRate > lower.frameRate)).toBe(true);
    }
    for (const rung of rungs) {
      expect(rung.width / rung.height).toBeCloseTo(16 / 9, 6);
      const values = bitrateTiers.map((tier) => rung.bitrates[tier]);
      expect([...values].sort((a, b) => a - b)).toEqual(values);
      for (const value of values) {
        expect(value).toBeGreaterThanOrEqual(rung.youtubeRange[0]);
        expect(value).toBeLessThanOrEqual(rung.youtubeRange[1]);
      }
    }
    expect(bitrateTiers.map((tier) => outputProfiles['1080p30'].bitrates[tier])).toEqual([3_000_000, 4_500_000, 6_000_000]);
    expect(defaultQuality).toEqual({ profile: '1080p30', tier: 'low' });
  });

  // H.264 Annex A, High profile (bitrate and buffer limits 1.25 times the Main figures): frame size and
  // macroblocks per second at the rung's size and rate, bitrate and HRD buffer (2 s) at its high tier.
  test.each([
    ['3.1', 3_600, 108_000, 17_500_000, 17_500_000],
    ['4.1', 8_192, 245_760, 62_500_000, 62_500_000],
    ['4.2', 8_704, 522_240, 62_500_000, 62_500_000],
    ['5.0', 22_080, 589_824, 168_750_000, 168_750_000],
    ['5.1', 36_864, 983_040, 300_000_000, 300_000_000],
    ['5.2', 36_864, 2_073_600, 300_000_000, 300_000_000],
  ])('every profile at level %s fits its limits', (level, maxFrameMbs, maxMbsPerSecond, maxBitrate, maxBuffer) => {
    const atLevel = outputProfileIds.map((id) => outputSettings(id, 'high')).filter((settings) => settings.level === level);
    expect(atLevel.length).toBeGreaterThan(0);
    for (const settings of atLevel) {
      const frameMbs = Math.ceil(settings.width / 16) * Math.ceil(settings.height / 16);
      expect(frameMbs).toBeLessThanOrEqual(maxFrameMbs);
      expect(frameMbs * settings.frameRate).toBeLessThanOrEqual(maxMbsPerSecond);
      expect(settings.videoBitrate).toBeLessThanOrEqual(maxBitrate);
      expect(settings.bufferBits).toBeLessThanOrEqual(maxBuffer);
    }
  });

  test('a stored hour is about 1.4 GB at 3 Mbit/s and 18.4 GB at 40 Mbit/s', () => {
    expect(storedBytesPerSecond(3_000_000) * 3600).toBeCloseTo(1.4355e9, -6);
    expect(storedBytesPerSecond(40_000_000) * 3600).toBeCloseTo(18.42e9, -7);
  });
});

describe('chooseOutput', () => {
  test.each<[string, SourceVideoTrack, OutputProfileId, OutputProfileId, string[]]>([
    ['a 1080p30 source at 1080p30 is what was asked', track(1920, 1080, { frameRate: 30 }), '1080p30', '1080p30', []],
    ['a 720p source asked for 1080p stays 720p (no upscaling)', track(1280, 720, { frameRate: 30 }), '1080p30', '720p30', ['source size']],
    ['a 640x360 source gets the lowest rung, 720p', track(640, 360, { frameRate: 30 }), '1080p30', '720p30', ['source size']],
    ['a 4K 60 fps source asked for 1080p30 is scaled down and halved', track(3840, 2160, { frameRate: 59.94 }), '1080p30', '1080p30', []],
    ['a 4K 60 fps source asked for 2160p60 keeps both', track(3840, 2160, { frameRate: 60 }), '2160p60', '2160p60', []],
    [
      'a 4K 30 fps source asked for 2160p60 keeps its 30 fps (no frames invented)',
      track(3840, 2160, { frameRate: 29.97 }),
      '2160p60',
      '2160p30',
      ['source frame rate'],
    ],
    ['a 1080p60 source asked for 2160p60 is 1080p60', track(1920, 1080, { frameRate: 60 }), '2160p60', '1080p60', ['source size']],
    ['a 1080p25 source asked for 1440p60 is 1080p30', track(1920, 1080, { frameRate: 25 }), '1440p60', '1080p30', ['source size', 'source frame rate']],
    ['a 50 fps source keeps 60 fps', track(1920, 1080, { frameRate: 50 }), '1080p60', '1080p60', []],
    ['an unknown rate counts as 30 fps', track(1920, 1080), '1080p60', '1080p30', ['source frame rate']],
    ['21:9 1920x800 fills 1080p by width', track(1920, 800, { frameRate: 30 }), '2160p30', '1080p30', ['source size']],
    ['a portrait 1080x1920 phone video fills 1440p by height', track(1920, 1080, { rotation: 90, frameRate: 30 }), '2160p30', '1440p30', ['source size']],
    ['a few pixels short of 1080p (1916x1076) is still 1080p', track(1916, 1076, { frameRate: 30 }), '1080p30', '1080p30', []],
    ['a 720p60 source at 720p30 is halved', track(1280, 720, { frameRate: 60 }), '720p30', '720p30', []],
  ])('%s', (_name, video, asked, made, limitedBy) => {
    const output = chooseOutput({ profile: asked, tier: 'medium' }, video, everyProfile);
    expect([output.profile, output.tier, output.limitedBy]).toEqual([made, 'medium', limitedBy]);
  });

  test("the plan's profiles bound the choice, and the tier asked is kept on the rung made", () => {
    const fullHd: OutputProfileId[] = ['720p30', '1080p30'];
    const output = chooseOutput({ profile: '2160p60', tier: 'high' }, track(3840, 2160, { frameRate: 60 }), fullHd);
    expect(output).toEqual({ ...outputSettings('1080p30', 'high'), limitedBy: ['plan'] });
    expect(output.videoBitrate).toBe(6_000_000);
    expect(chooseOutput({ profile: '1080p60', tier: 'low' }, track(1280, 720, { frameRate: 30 }), fullHd).limitedBy).toEqual([
      'source size',
      'source frame rate',
      'plan',
    ]);
  });
});

describe('outputKeys', () => {
  test('follows the bucket layout, with or without the trailing slash', () => {
    expect(outputKeys('media/u1/v1/', 'video')).toEqual({ media: 'media/u1/v1/stream.mp4', thumbnail: 'media/u1/v1/thumb.jpg' });
    expect(outputKeys('media/u1/v1', 'audio')).toEqual({ media: 'media/u1/v1/stream.m4a' });
  });
});

describe('fitPicture', () => {
  test.each([
    ['16:9 720p fills the frame', track(1280, 720), { width: 1920, height: 1080, x: 0, y: 0 }],
    ['16:9 4K is scaled down', track(3840, 2160), { width: 1920, height: 1080, x: 0, y: 0 }],
    ['4:3 is pillarboxed', track(640, 480), { width: 1440, height: 1080, x: 240, y: 0 }],
    ['portrait 9:16 is pillarboxed', track(360, 640), { width: 608, height: 1080, x: 656, y: 0 }],
    ['21:9 is letterboxed', track(2560, 1080), { width: 1920, height: 810, x: 0, y: 134 }],
    ['a phone video stored landscape with a 90 degree rotation is portrait', track(1920, 1080, { rotation: -90 }), { width: 608, height: 1080, x: 656, y: 0 }],
    ['a 180 degree rotation keeps the shape', track(1280, 720, { rotation: 180 }), { width: 1920, height: 1080, x: 0, y: 0 }],
    ['anamorphic PAL 16:9 (720x576, SAR 64:45) fills the frame', track(720, 576, { sampleAspectRatio: 64 / 45 }), { width: 1920, height: 1080, x: 0, y: 0 }],
    [
      'anamorphic PAL 4:3 (720x576, SAR 16:15) is pillarboxed like 4:3',
      track(720, 576, { sampleAspectRatio: 16 / 15 }),
      { width: 1440, height: 1080, x: 240, y: 0 },
    ],
  ])('%s', (_name, video, expected) => {
    expect(fitPicture(video, full1080)).toEqual(expected);
  });

  test('sizes and offsets stay even (4:2:0 chroma) for odd shapes', () => {
    for (const [width, height] of [
      [997, 601],
      [1000, 1777],
      [333, 333],
      [1921, 1081],
    ] as const) {
      const fit = fitPicture(track(width, height), full1080);
      for (const value of Object.values(fit)) expect(value % 2).toBe(0);
      expect(fit.x + fit.width).toBeLessThanOrEqual(1920);
      expect(fit.y + fit.height).toBeLessThanOrEqual(1080);
      expect(fit.width === 1920 || fit.height === 1080).toBe(true);
    }
  });
});

describe('stereoMix', () => {
  test('mono is heard on both sides at full level', () => {
    expect(stereoMix(1)).toEqual([[1], [1]]);
  });

  test('stereo passes unchanged', () => {
    expect(stereoMix(2)).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  test('5.1 folds centre and surrounds in at -3 dB relative to the fronts, drops LFE, and cannot clip', () => {
    const [left, right] = stereoMix(6);
    expect(left[2]! / left[0]!).toBeCloseTo(Math.SQRT1_2, 6);
    expect(left[4]! / left[0]!).toBeCloseTo(Math.SQRT1_2, 6);
    expect(right[5]! / right[1]!).toBeCloseTo(Math.SQRT1_2, 6);
    expect(left[3]).toBe(0);
    expect(right[3]).toBe(0);
    expect([left[1], left[5], right[0], right[4]]).toEqual([0, 0, 0, 0]);
    for (const side of [left, right]) expect(side.reduce((sum, gain) => sum + gain, 0)).toBeCloseTo(1, 6);
  });

  test('other layouts keep their first two channels', () => {
    expect(stereoMix(4)).toEqual([
      [1, 0, 0, 0],
      [0, 1, 0, 0],
    ]);
  });
});

describe('planTranscode', () => {
  const video: SourceMedia = {
    durationSeconds: 7,
    video: track(1440, 1080, { durationSeconds: 5, frameRate: 25 }),
    audio: { channels: 2, durationSeconds: 7 },
  };

  test("a video's length comes from its video track, never from a longer audio track", () => {
    const result = planTranscode('video', video, request());
    expect(result).toEqual({
      ok: true,
      plan: {
        kind: 'video',
        output: outputSettings('1080p30', 'low'),
        frameCount: 150,
        durationSeconds: 5,
        picture: { width: 1440, height: 1080, x: 240, y: 0 },
        audio: { mix: stereoMix(2), channels: 2 },
        thumbnailAtSeconds: 0.5,
      },
    });
  });

  test('the picture fits the frame of the rung made: a 4:3 640x480 source is pillarboxed in 720p', () => {
    const result = planTranscode('video', { video: track(640, 480, { durationSeconds: 2 }) }, request());
    expect(result.ok && result.plan.kind === 'video' && [result.plan.output.profile, result.plan.picture]).toEqual([
      '720p30',
      { width: 960, height: 720, x: 160, y: 0 },
    ]);
  });

  test('the length is rounded to whole frames at the output rate', () => {
    const at30 = planTranscode('video', { video: track(1280, 720, { durationSeconds: 10.01 }) }, request());
    expect(at30.ok && at30.plan.kind === 'video' && [at30.plan.frameCount, at30.plan.durationSeconds]).toEqual([300, 10]);
    const at60 = planTranscode('video', { video: track(1920, 1080, { durationSeconds: 10.01, frameRate: 60 }) }, request('1080p60'));
    expect(at60.ok && at60.plan.kind === 'video' && [at60.plan.frameCount, at60.plan.durationSeconds]).toEqual([601, 601 / 60]);
  });

  test('without a track duration the container duration is used', () => {
    const result = planTranscode('video', { durationSeconds: 4, video: track(1280, 720) }, request());
    expect(result.ok && result.plan.kind === 'video' && result.plan.frameCount).toBe(120);
  });

  test('a video without sound gets a silent track', () => {
    const result = planTranscode('video', { video: track(1280, 720, { durationSeconds: 3 }) }, request());
    expect(result.ok && result.plan.kind === 'video' && result.plan.audio).toBe('silence');
  });

  test("what is stored follows the output's bitrate: an hour at 1080p30 low is about half of one at high", () => {
    const hour: SourceMedia = { video: track(1920, 1080, { durationSeconds: 3600 }) };
    const stored = (tier: BitrateTier) => {
      const planned = planTranscode('video', hour, request('1080p30', tier));
      if (!planned.ok) throw new Error(planned.reason);
      return projectedStoredBytes(planned.plan);
    };
    expect(stored('low')).toBeCloseTo(1.4355e9 + 512 * 1024, -6);
    expect(stored('high')).toBeCloseTo(2.8125e9 + 512 * 1024, -6);
  });

  test('an audio item takes the audio of any file, at its own length', () => {
    expect(planTranscode('audio', video, request())).toEqual({
      ok: true,
      plan: { kind: 'audio', durationSeconds: 7, audio: { mix: stereoMix(2), channels: 2 } },
    });
    expect(planTranscode('audio', { durationSeconds: 3, audio: { channels: 1 } }, request())).toEqual({
      ok: true,
      plan: { kind: 'audio', durationSeconds: 3, audio: { mix: [[1], [1]], channels: 1 } },
    });
  });

  test.each([
    ['a video item without a picture', 'video', { durationSeconds: 3, audio: { channels: 2 } }, 'the file has no video track'],
    ['a still image (one frame)', 'video', { durationSeconds: 0.04, video: track(800, 600) }, 'the video is shorter than 1 s or has no duration'],
    ['a video without any duration', 'video', { video: track(800, 600) }, 'the video is shorter than 1 s or has no duration'],
    ['an audio item without sound', 'audio', { durationSeconds: 3, video: track(800, 600) }, 'the file has no audio track'],
    ['nothing at all', 'audio', {}, 'the file has no audio track'],
  ] as const)('rejects %s', (_name, kind, source, reason) => {
    expect(planTranscode(kind, source, request())).toEqual({ ok: false, reason });
  });
});

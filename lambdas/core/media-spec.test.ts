import { describe, expect, test } from '@jest/globals';
import {
  aacFrameSamples,
  audioSamplesPerFrame,
  loopAudioSamples,
  fitPicture,
  keyframeIntervalFrames,
  outputKeys,
  planTranscode,
  stereoMix,
  videoOutput,
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

describe('fixed numbers the loop depends on', () => {
  test('a keyframe every 60 frames is exactly 2 s at the fixed 30 fps, within YouTube 4 s limit', () => {
    expect(videoOutput.frameRate).toBe(30);
    expect(keyframeIntervalFrames).toBe(60);
    expect(keyframeIntervalFrames / videoOutput.frameRate).toBe(2);
  });

  test('44.1 kHz audio has a whole number of samples per video frame', () => {
    expect(audioSamplesPerFrame).toBe(1470);
  });

  test('the audio of a loop: whole AAC frames, priming included, ending 1 to 24 ms inside the video', () => {
    for (const frames of [30, 60, 61, 150, 1799, 108_000]) {
      const samples = loopAudioSamples(frames);
      expect(samples % aacFrameSamples).toBe(0);
      const spare = frames * audioSamplesPerFrame - (samples + aacFrameSamples);
      expect(spare).toBeGreaterThanOrEqual(44);
      expect(spare).toBeLessThan(aacFrameSamples + 44);
    }
    expect(loopAudioSamples(60)).toBe(87_040);
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
    ['anamorphic PAL 4:3 (720x576, SAR 16:15) is pillarboxed like 4:3', track(720, 576, { sampleAspectRatio: 16 / 15 }), { width: 1440, height: 1080, x: 240, y: 0 }],
  ])('%s', (_name, video, expected) => {
    expect(fitPicture(video)).toEqual(expected);
  });

  test('sizes and offsets stay even (4:2:0 chroma) for odd shapes', () => {
    for (const [width, height] of [[997, 601], [1000, 1777], [333, 333], [1921, 1081]] as const) {
      const fit = fitPicture(track(width, height));
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
  const video: SourceMedia = { durationSeconds: 7, video: track(640, 480, { durationSeconds: 5 }), audio: { channels: 2, durationSeconds: 7 } };

  test("a video's length comes from its video track, never from a longer audio track", () => {
    const result = planTranscode('video', video);
    expect(result).toEqual({
      ok: true,
      plan: {
        kind: 'video',
        frameCount: 150,
        durationSeconds: 5,
        picture: { width: 1440, height: 1080, x: 240, y: 0 },
        audio: { mix: stereoMix(2), channels: 2 },
        thumbnailAtSeconds: 0.5,
      },
    });
  });

  test('the length is rounded to whole 30 fps frames', () => {
    const result = planTranscode('video', { video: track(1280, 720, { durationSeconds: 10.01 }) });
    expect(result.ok && result.plan.kind === 'video' && [result.plan.frameCount, result.plan.durationSeconds]).toEqual([300, 10]);
  });

  test('without a track duration the container duration is used', () => {
    const result = planTranscode('video', { durationSeconds: 4, video: track(1280, 720) });
    expect(result.ok && result.plan.kind === 'video' && result.plan.frameCount).toBe(120);
  });

  test('a video without sound gets a silent track', () => {
    const result = planTranscode('video', { video: track(1280, 720, { durationSeconds: 3 }) });
    expect(result.ok && result.plan.kind === 'video' && result.plan.audio).toBe('silence');
  });

  test('an audio item takes the audio of any file, at its own length', () => {
    expect(planTranscode('audio', video)).toEqual({ ok: true, plan: { kind: 'audio', durationSeconds: 7, audio: { mix: stereoMix(2), channels: 2 } } });
    expect(planTranscode('audio', { durationSeconds: 3, audio: { channels: 1 } })).toEqual({
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
    expect(planTranscode(kind, source)).toEqual({ ok: false, reason });
  });
});

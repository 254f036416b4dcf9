import { plans } from '@loopcast/core/plans';
import { initialUploadQuality, type VideoOutput, lowerChoices, missingFromPlan, storedBytesPerHour, trafficBytesPerMonth } from './quality';

const basic = plans.basic.limits.outputProfiles;
const pro = plans.pro.limits.outputProfiles;

describe('the upload choice', () => {
  test('starts at Full HD 30 fps on the lowest tier (the cheapest one that looks right)', () => {
    expect(initialUploadQuality(null, basic)).toEqual({ profile: '1080p30', tier: 'low' });
  });

  test('keeps what was chosen last time while the plan includes it', () => {
    expect(initialUploadQuality({ profile: '2160p60', tier: 'medium' }, pro)).toEqual({ profile: '2160p60', tier: 'medium' });
    expect(initialUploadQuality({ profile: '720p30', tier: 'high' }, basic)).toEqual({ profile: '720p30', tier: 'high' });
  });

  test('falls back to the default when the plan lost the profile, or what was kept is not a choice', () => {
    expect(initialUploadQuality({ profile: '2160p60', tier: 'medium' }, basic)).toEqual({ profile: '1080p30', tier: 'low' });
    expect(initialUploadQuality({ profile: '8k', tier: 'low' }, pro)).toEqual({ profile: '1080p30', tier: 'low' });
    expect(initialUploadQuality({ profile: '720p30', tier: 'ultra' }, pro)).toEqual({ profile: '1080p30', tier: 'low' });
    expect(initialUploadQuality('garbage', pro)).toEqual({ profile: '1080p30', tier: 'low' });
  });
});

describe('what the plan lacks, as the upgrade hint says it', () => {
  test('Basic lacks 60 fps, 1440p and 4K, which Pro and Custom have', () => {
    expect(missingFromPlan(basic)).toEqual({ frameRate60: true, heights: [1440, 2160], plans: ['pro', 'custom'] });
  });

  test('Pro lacks nothing', () => {
    expect(missingFromPlan(pro)).toBeUndefined();
  });
});

describe('what a tier costs, in plain figures', () => {
  test('1080p30 low (3 Mbit/s) sends about 1.09 TB a month to a destination, high (6 Mbit/s) about 2.1 TB', () => {
    // (video + 128 kbit/s audio) x 1.06 wire overhead x 730 h, decimal bytes (lambdas/core/costs).
    expect(trafficBytesPerMonth(3_000_000) / 1e12).toBeCloseTo(1.089, 2);
    expect(trafficBytesPerMonth(6_000_000) / 1e12).toBeCloseTo(2.134, 2);
  });

  test('an hour at 3 Mbit/s takes about 1.4 GB of storage', () => {
    expect(storedBytesPerHour(3_000_000) / 1e9).toBeCloseTo(1.436, 2);
  });
});

describe('a ready video made lighter', () => {
  test('offers only what is lower than its file (in size or bitrate) and in the plan, the highest bitrate first', () => {
    const output: VideoOutput = { profile: '1080p30', tier: 'medium', frameRate: 30, videoBitrate: 4_500_000, limitedBy: [] };
    expect(lowerChoices(output, basic)).toEqual([
      { profile: '720p30', tier: 'medium' },
      { profile: '1080p30', tier: 'low' },
      { profile: '720p30', tier: 'low' },
    ]);
  });

  test('a 4K 60 fps file on Pro may go down to any lower rung, never up', () => {
    const output: VideoOutput = { profile: '2160p60', tier: 'low', frameRate: 60, videoBitrate: 20_000_000, limitedBy: [] };
    const choices = lowerChoices(output, pro);
    expect(choices).not.toContainEqual({ profile: '2160p60', tier: 'low' });
    expect(choices).not.toContainEqual({ profile: '2160p60', tier: 'medium' });
    // 2160p30's high tier is 26 Mbit/s: more bits than the file has.
    expect(choices).not.toContainEqual({ profile: '2160p30', tier: 'high' });
    expect(choices[0]).toEqual({ profile: '2160p30', tier: 'medium' });
    expect(choices.at(-1)).toEqual({ profile: '720p30', tier: 'low' });
  });

  test('the lightest file has nothing lower', () => {
    expect(lowerChoices({ profile: '720p30', tier: 'low', frameRate: 30, videoBitrate: 3_000_000, limitedBy: [] }, basic)).toEqual([]);
  });

  test('an item made before profiles counts as 1080p30 at 6 Mbit/s', () => {
    expect(lowerChoices(undefined, basic)).toContainEqual({ profile: '1080p30', tier: 'medium' });
  });
});

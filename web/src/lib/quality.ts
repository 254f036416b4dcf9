// Output quality as the app shows and offers it (docs/transcoding.md, "Output profiles"): the ladder and its
// tiers come from lambdas/core/media-spec.ts, which profiles a plan includes from the owner's limits
// (GET /subscription) and plans.ts. Pure, so the choices are tested without a page.
import {
  bitrateTiers,
  defaultQuality,
  isBitrateTier,
  isOutputProfileId,
  outputProfileIds,
  outputProfiles,
  storedBytesPerSecond,
  type BitrateTier,
  type OutputProfileId,
  type QualityChoice,
} from '@loopcast/core/media-spec';
import { gbPerDestinationMonth } from '@loopcast/core/costs/model';
import type { VideoOutput } from '@loopcast/contract/api/videos';
import { legacyOutput, qualityChangeFrom } from '@loopcast/core/media/videos';
import { planIds, plans, type PlanId } from '@loopcast/core/plans';

export type { BitrateTier, OutputProfileId, QualityChoice, VideoOutput };
export { bitrateTiers, defaultQuality, outputProfileIds };

/** "720p", "1080p", "1440p", "4K". */
export const resolutionName = (height: number): string => (height === 2160 ? '4K' : `${height}p`);

/** Mbit/s in the page's language: "3", "4.5" or "4,5". */
export const megabits = (bitsPerSecond: number, locale: string): string =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(bitsPerSecond / 1_000_000);

export const bitrateOf = (choice: QualityChoice): number => outputProfiles[choice.profile].bitrates[choice.tier];

/** Bytes an hour of video takes stored at this bitrate (video, audio, container). */
export const storedBytesPerHour = (videoBitrate: number): number => Math.round(storedBytesPerSecond(videoBitrate) * 3600);

/** Bytes (decimal, as traffic is counted) a stream at this bitrate sends to each destination in a month around the
 * clock: the cost model's figure (audio and RTMP/TCP overhead included; docs/costs.md). */
export const trafficBytesPerMonth = (videoBitrate: number): number => gbPerDestinationMonth(videoBitrate / 1_000_000) * 1e9;

/** The plans whose limits include a profile (for "Pro and Custom" next to one the creator's plan lacks). */
export const plansWith = (profile: OutputProfileId): PlanId[] => planIds.filter((id) => plans[id].limits.outputProfiles.includes(profile));

/** The highest profile of a plan (the pricing pages' "up to" line). */
export const topProfileOf = (profiles: readonly OutputProfileId[]): OutputProfileId =>
  outputProfileIds.filter((id) => profiles.includes(id)).at(-1) ?? defaultQuality.profile;

/** What a plan lacks of the ladder, said as a creator thinks of it (60 fps, the larger sizes), and the plans that
 * have all of it; undefined when the plan has every profile. */
export function missingFromPlan(allowed: readonly OutputProfileId[]): { frameRate60: boolean; heights: number[]; plans: PlanId[] } | undefined {
  const missing = outputProfileIds.filter((id) => !allowed.includes(id));
  if (missing.length === 0) return undefined;
  const allowedHeights = new Set(allowed.map(heightOf));
  return {
    frameRate60: missing.some((id) => outputProfiles[id].frameRate === 60 && allowedHeights.has(heightOf(id))),
    heights: [...new Set(missing.map(heightOf))].filter((height) => !allowedHeights.has(height)),
    plans: planIds.filter((id) => missing.every((profile) => plans[id].limits.outputProfiles.includes(profile))),
  };
}

/** The choice the uploader starts with: what was kept from last time when the plan still includes it. */
export function initialUploadQuality(saved: unknown, allowed: readonly OutputProfileId[]): QualityChoice {
  const candidate = saved as Partial<QualityChoice> | null | undefined;
  if (candidate && isOutputProfileId(candidate.profile) && isBitrateTier(candidate.tier) && allowed.includes(candidate.profile)) {
    return { profile: candidate.profile, tier: candidate.tier };
  }
  return defaultQuality;
}

/** What a ready video's quality may be changed to: lower in size, rate or bitrate, and in the plan; lightest last. */
export function lowerChoices(current: VideoOutput | undefined, allowed: readonly OutputProfileId[]): QualityChoice[] {
  const from = current ?? legacyOutput;
  return outputProfileIds
    .filter((profile) => allowed.includes(profile))
    .flatMap((profile) => bitrateTiers.map((tier) => ({ profile, tier })))
    .filter((choice) => qualityChangeFrom(from, choice) === 'lower')
    .sort((a, b) => bitrateOf(b) - bitrateOf(a) || outputProfiles[b.profile].height - outputProfiles[a.profile].height);
}

/** True while a quality change is being made (the item encodes and already has a file of another quality). */
export const isChangingQuality = (video: { status: string; output?: VideoOutput; quality?: QualityChoice }): boolean =>
  video.status === 'encoding' && video.output !== undefined && video.quality !== undefined;

/** The output a choice would be on its own rung (before the source and the plan are considered). */
export const outputOfChoice = (choice: QualityChoice): Pick<VideoOutput, 'profile' | 'tier' | 'frameRate' | 'videoBitrate'> => ({
  profile: choice.profile,
  tier: choice.tier,
  frameRate: outputProfiles[choice.profile].frameRate,
  videoBitrate: bitrateOf(choice),
});

export const heightOf = (profile: OutputProfileId): number => outputProfiles[profile].height;

export const tiersOf = (profile: OutputProfileId): { tier: BitrateTier; bitrate: number }[] =>
  bitrateTiers.map((tier) => ({ tier, bitrate: outputProfiles[profile].bitrates[tier] }));

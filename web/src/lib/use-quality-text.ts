// Output quality in the page's language: "1080p · 30 fps", "4,5 Mbit/s", "720p · 30 fps · 3 Mbit/s", the plans
// that include a profile ("Pro and Custom"), what a plan lacks ("60 fps, 1440p and 4K") and a month's traffic
// ("1.1 TB"). Shared by the Videos and Streams pages.
import { useMemo } from 'react';
import { outputProfiles, type OutputProfileId } from '@loopcast/core/media-spec';
import type { PlanId } from '@loopcast/core/plans';
import { useI18n } from '../i18n/i18n-context';
import { megabits, plansWith, resolutionName, type missingFromPlan, type VideoOutput } from './quality';

export interface QualityText {
  /** The profile's size and rate, or the rate given (a 1440p profile made at 30 fps). */
  profileText: (profile: OutputProfileId, frameRate?: number) => string;
  bitrateText: (bitsPerSecond: number) => string;
  outputText: (output: Pick<VideoOutput, 'profile' | 'frameRate' | 'videoBitrate'>) => string;
  plansText: (profile: OutputProfileId) => string;
  planNamesText: (planIds: readonly PlanId[]) => string;
  /** What a plan lacks (missingFromPlan), as a list. */
  missingText: (missing: NonNullable<ReturnType<typeof missingFromPlan>>) => string;
  /** Decimal bytes of traffic, in GB or TB. */
  trafficText: (bytes: number) => string;
}

export function useQualityText(): QualityText {
  const { t, language } = useI18n();
  return useMemo(() => {
    const locale = language.htmlLang;
    const list = (items: string[]) => new Intl.ListFormat(locale).format(items);
    const profileText = (profile: OutputProfileId, frameRate: number = outputProfiles[profile].frameRate) =>
      t('videos.quality.profile', { resolution: resolutionName(outputProfiles[profile].height), rate: frameRate });
    const bitrateText = (bitsPerSecond: number) => t('videos.quality.mbps', { value: megabits(bitsPerSecond, locale) });
    const planNamesText = (planIds: readonly PlanId[]) => list(planIds.map((id) => t(`pricing.plans.${id}.name`)));
    return {
      profileText,
      bitrateText,
      outputText: (output) => t('videos.quality.output', { profile: profileText(output.profile, output.frameRate), bitrate: bitrateText(output.videoBitrate) }),
      plansText: (profile) => planNamesText(plansWith(profile)),
      planNamesText,
      missingText: (missing) => list([...(missing.frameRate60 ? [t('videos.quality.frameRate', { rate: 60 })] : []), ...missing.heights.map(resolutionName)]),
      trafficText: (bytes) => {
        const terabytes = bytes / 1e12;
        const [value, unit] = terabytes >= 1 ? [terabytes, 'terabyte'] : [bytes / 1e9, 'gigabyte'];
        return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
      },
    };
  }, [t, language]);
}

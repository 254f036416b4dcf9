// Output quality in the page's language: "1080p · 30 fps", "4,5 Mbit/s", "720p · 30 fps · 3 Mbit/s", and the plans
// that include a profile ("Pro and Custom"). Shared by the Videos and Streams pages.
import { useMemo } from 'react';
import { outputProfiles, type OutputProfileId } from '../../../../lambdas/core/media-spec';
import { useI18n } from '../../i18n/i18n-context';
import { megabits, plansWith, resolutionName, type VideoOutput } from './quality';

export interface QualityText {
  /** The profile's size and rate, or the rate given (a 1440p profile made at 30 fps). */
  profileText: (profile: OutputProfileId, frameRate?: number) => string;
  bitrateText: (bitsPerSecond: number) => string;
  outputText: (output: Pick<VideoOutput, 'profile' | 'frameRate' | 'videoBitrate'>) => string;
  plansText: (profile: OutputProfileId) => string;
}

export function useQualityText(): QualityText {
  const { t, language } = useI18n();
  return useMemo(() => {
    const locale = language.htmlLang;
    const profileText = (profile: OutputProfileId, frameRate: number = outputProfiles[profile].frameRate) =>
      t('videos.quality.profile', { resolution: resolutionName(outputProfiles[profile].height), rate: frameRate });
    const bitrateText = (bitsPerSecond: number) => t('videos.quality.mbps', { value: megabits(bitsPerSecond, locale) });
    return {
      profileText,
      bitrateText,
      outputText: (output) => t('videos.quality.output', { profile: profileText(output.profile, output.frameRate), bitrate: bitrateText(output.videoBitrate) }),
      plansText: (profile) => new Intl.ListFormat(locale).format(plansWith(profile).map((id) => t(`pricing.plans.${id}.name`))),
    };
  }, [t, language]);
}

// A platform's limits and a video's findings against them (lambdas/core/channels/platform-fit.ts), in the page's
// language: what the platform picker says of a platform, and what a stream's warnings and refusals say. Pure.
import type { TFunction } from 'i18next';
import { presetById, type DestinationPresetId, type FrameSize, type VideoLimits } from '@loopcast/contract/destination-presets';
import type { Finding } from '@loopcast/core/channels/platform-fit';

/** A platform's name; Custom is "Other server" in the page's language. */
export const platformName = (t: TFunction, id: DestinationPresetId): string => (id === 'custom' ? t('channels.rtmp.custom') : presetById(id).name);

const frame = (size: FrameSize) => `${size.long}×${size.short}`;

const megabits = (bitsPerSecond: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabit-per-second', unitDisplay: 'short', maximumFractionDigits: 2 }).format(
    bitsPerSecond / 1_000_000,
  );

const seconds = (value: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);

const list = (items: string[], locale: string) => new Intl.ListFormat(locale, { type: 'conjunction' }).format(items);

/** One limit of a platform, as a phrase: "1920×1080", "60 fps", "9 Mbps video", "a keyframe at least every 4 s". */
export function describeLimits(t: TFunction, locale: string, limits: VideoLimits): string[] {
  return [
    ...(limits.maxFrame ? [t('platforms.limit.frame', { size: frame(limits.maxFrame) })] : []),
    ...(limits.maxFrameRate !== undefined ? [t('platforms.limit.frameRate', { count: limits.maxFrameRate })] : []),
    ...(limits.maxVideoBitrate !== undefined ? [t('platforms.limit.bitrate', { rate: megabits(limits.maxVideoBitrate, locale) })] : []),
    ...(limits.bitrateByFormat ? [t('platforms.limit.bitrateByFormat')] : []),
    ...(limits.maxKeyframeIntervalSeconds !== undefined
      ? [t('platforms.limit.keyframeInterval', { seconds: seconds(limits.maxKeyframeIntervalSeconds, locale) })]
      : []),
    ...(limits.portrait ? [t('platforms.limit.portrait')] : []),
  ];
}

/** What a platform publishes and what it leaves out, as sentences for the picker. */
export function describePlatform(t: TFunction, locale: string, id: DestinationPresetId): string[] {
  const preset = presetById(id);
  const required = describeLimits(t, locale, preset.required);
  const recommended = describeLimits(t, locale, preset.recommended);
  const unpublished = (preset.unpublished ?? []).map((what) => t(`platforms.unpublishedItem.${what}`));
  return [
    ...(required.length ? [t('platforms.takesAtMost', { limits: list(required, locale) })] : []),
    ...(recommended.length ? [t('platforms.recommends', { limits: list(recommended, locale) })] : []),
    ...(unpublished.length ? [t('platforms.unpublished', { platform: preset.name, what: list(unpublished, locale) })] : []),
  ];
}

/** How a video differs from one limit: "the frame is 3840×2160, above 1920×1080". */
export function describeFinding(t: TFunction, locale: string, finding: Finding): string {
  switch (finding.limit) {
    case 'frame':
      return t('platforms.finding.frame', { actual: frame(finding.actual), max: frame(finding.max) });
    case 'frameRate':
      return t('platforms.finding.frameRate', { actual: finding.actual, max: finding.max });
    case 'bitrate':
      return 'max' in finding
        ? t('platforms.finding.bitrateAbove', { actual: megabits(finding.actual, locale), max: megabits(finding.max, locale) })
        : t('platforms.finding.bitrateBelow', { actual: megabits(finding.actual, locale), min: megabits(finding.min, locale) });
    case 'keyframeInterval':
      return t('platforms.finding.keyframeInterval', { actual: seconds(finding.actual, locale), max: seconds(finding.max, locale) });
    case 'portrait':
      return t('platforms.finding.portrait');
  }
}

export const describeFindings = (t: TFunction, locale: string, findings: Finding[]): string =>
  list(
    findings.map((finding) => describeFinding(t, locale, finding)),
    locale,
  );

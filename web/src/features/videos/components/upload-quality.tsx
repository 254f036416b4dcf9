import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import {
  bitrateOf,
  defaultQuality,
  initialUploadQuality,
  missingFromPlan,
  outputProfileIds,
  storedBytesPerHour,
  tiersOf,
  trafficBytesPerMonth,
  type OutputProfileId,
  type QualityChoice,
} from '../../../lib/quality';
import { setUploadQuality } from '../uploader';
import { useQualityText } from '../../../lib/use-quality-text';

const SAVED_KEY = 'loopcast.upload-quality';

function savedChoice(): unknown {
  try {
    return JSON.parse(window.localStorage.getItem(SAVED_KEY) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * The profile and tier new video uploads ask for (tus metadata `profile`, `tier`), kept in the browser for the next
 * visit; the lowest tier is the default and marked as recommended. What the choice means is said in plain words: the
 * traffic a 24/7 stream sends each month (the cost model's figure; the plan includes it) and the storage an hour of
 * video takes. Profiles the plan lacks are shown, disabled, with the plans that include them and a link to the plans.
 */
export function UploadQuality({ allowed, planLink }: { allowed: readonly OutputProfileId[]; planLink: string }) {
  const { t, language } = useI18n();
  const { profileText, bitrateText, plansText, planNamesText, missingText, trafficText } = useQualityText();
  const ids = useId();
  const [choice, setChoice] = useState<QualityChoice>(() => initialUploadQuality(savedChoice(), allowed));
  const allowedKey = allowed.join(',');
  const missing = missingFromPlan(allowed);
  const bitrate = bitrateOf(choice);

  // The plan may be known (or change) after the first render: a choice it no longer includes falls back.
  useEffect(() => setChoice((current) => initialUploadQuality(current, allowedKey.split(',') as OutputProfileId[])), [allowedKey]);
  useEffect(() => {
    setUploadQuality(choice);
    try {
      window.localStorage.setItem(SAVED_KEY, JSON.stringify(choice));
    } catch {
      // Private windows may refuse storage: the choice holds for this visit.
    }
  }, [choice]);

  return (
    <fieldset className="upload-quality" data-profile={choice.profile} data-tier={choice.tier}>
      <legend className="upload-quality__legend">{t('videos.quality.legend')}</legend>
      <div className="upload-quality__fields">
        <div className="upload-quality__field">
          <label className="upload-quality__label" htmlFor={`${ids}-profile`}>
            {t('videos.quality.picture')}
          </label>
          <select
            id={`${ids}-profile`}
            className="upload-quality__select"
            value={choice.profile}
            onChange={(event) => setChoice({ ...choice, profile: event.target.value as OutputProfileId })}
          >
            {outputProfileIds.map((profile) => (
              <option key={profile} value={profile} disabled={!allowed.includes(profile)}>
                {allowed.includes(profile) ? profileText(profile) : t('videos.quality.notInPlan', { profile: profileText(profile), plans: plansText(profile) })}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="upload-quality__field upload-quality__tiers">
          <legend className="upload-quality__label">{t('videos.quality.bitrate')}</legend>
          {tiersOf(choice.profile).map(({ tier, bitrate: tierBitrate }) => (
            <label key={tier} className="upload-quality__tier">
              <input type="radio" name={`${ids}-tier`} value={tier} checked={choice.tier === tier} onChange={() => setChoice({ ...choice, tier })} />
              <span>{t('videos.quality.tierOption', { tier: t(`videos.quality.tier.${tier}`), bitrate: bitrateText(tierBitrate) })}</span>
              {tier === defaultQuality.tier && <span className="upload-quality__badge">{t('videos.quality.recommended')}</span>}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="upload-quality__note upload-quality__cost" data-cost>
        {t('videos.quality.traffic', { amount: trafficText(trafficBytesPerMonth(bitrate)) })}{' '}
        {t('videos.quality.storage', { perHour: formatBytes(storedBytesPerHour(bitrate), language.htmlLang) })}
      </p>
      <p className="upload-quality__note">
        {t('videos.quality.tierHelp')} {t('videos.quality.noUpscaling')}
      </p>
      {missing && (
        <p className="upload-quality__upgrade" data-upgrade>
          {t('videos.quality.upgrade', { features: missingText(missing), plans: planNamesText(missing.plans) })}{' '}
          <Link to={planLink}>{t('videos.upload.seePlans')}</Link>
        </p>
      )}
    </fieldset>
  );
}

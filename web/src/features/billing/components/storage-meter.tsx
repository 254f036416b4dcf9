import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import { useSubscription } from '../api/billing-api';
import { usageLevel } from '../usage';
import './billing.css';

/** Storage used against the plan's limit, for the media library. */
export function StorageMeter({ refetchInterval, planLink }: { refetchInterval: number | false; planLink: string }) {
  const { t, language } = useI18n();
  const subscription = useSubscription(refetchInterval);
  if (!subscription.data) return null;
  const used = subscription.data.usage.storageBytes;
  const limit = subscription.data.limits.storageBytes;
  const locale = language.htmlLang;
  return (
    <div className={`storage-meter usage-meter--${usageLevel(used, limit)}`} data-limit="storage">
      <div className="usage-meter__head">
        <span id="storage-meter-label" className="usage-meter__label">
          {t('billing.limits.storage')}
        </span>
        <span className="usage-meter__value">{t('billing.usedOf', { used: formatBytes(used, locale), limit: formatBytes(limit, locale) })}</span>
      </div>
      <meter className="usage-meter__bar" aria-labelledby="storage-meter-label" min={0} max={limit} value={used} low={limit * 0.8} high={limit * 0.999} optimum={0} />
      <Link className="storage-meter__link" to={planLink}>
        {t('billing.morePlans')}
      </Link>
    </div>
  );
}

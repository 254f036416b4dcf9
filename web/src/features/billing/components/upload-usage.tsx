import { Link } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import type { SubscriptionOverview } from '../api/billing-api';
import { formatDate } from '../format';
import { usageRows } from '../usage';
import { UsageMeters } from './usage-meters';
import './billing.css';

/**
 * The two limits uploads use up, where files are uploaded: storage and this billing period's uploads, when the
 * count starts again, and the way to a bigger plan. Shown before they block, not only once they have.
 */
export function UploadUsage({ subscription, planLink }: { subscription: SubscriptionOverview; planLink: string }) {
  const { t, language } = useI18n();
  const rows = usageRows(subscription, undefined).filter((row) => row.id === 'storage' || row.id === 'uploads');
  return (
    <div className="upload-usage" data-limit="uploads-and-storage">
      <UsageMeters rows={rows} />
      <p className="upload-usage__footer">
        <span className="upload-usage__renewal">{t('billing.uploadsRenew', { date: formatDate(subscription.cycleEnd, language.htmlLang) })}</span>
        <Link className="upload-usage__link" to={planLink}>
          {t('billing.morePlans')}
        </Link>
      </p>
    </div>
  );
}

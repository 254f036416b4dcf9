import { useI18n } from '../../../i18n/i18n-context';
import { formatBytes } from '../../../lib/format';
import { usageLevel, type UsageRow } from '../usage';
import './billing.css';

function UsageMeter({ row }: { row: UsageRow }) {
  const { t, language } = useI18n();
  const locale = language.htmlLang;
  const format = (value: number) => (row.id === 'storage' ? formatBytes(value, locale) : new Intl.NumberFormat(locale).format(value));
  const labelId = `usage-${row.id}`;
  return (
    <li className={`usage-meter usage-meter--${row.used === undefined ? 'ok' : usageLevel(row.id, row.used, row.limit)}`} data-limit={row.id}>
      <div className="usage-meter__head">
        <span id={labelId} className="usage-meter__label">
          {t(`billing.limits.${row.id}`)}
        </span>
        <span className="usage-meter__value">{row.used === undefined ? '…' : t('billing.usedOf', { used: format(row.used), limit: format(row.limit) })}</span>
      </div>
      <meter className="usage-meter__bar" aria-labelledby={labelId} min={0} max={row.limit} value={row.used ?? 0} />
    </li>
  );
}

/** One meter per limit, coloured by what its use means (usage.ts: only more than the plan allows is red). */
export function UsageMeters({ rows }: { rows: UsageRow[] }) {
  return (
    <ul className="usage-meters">
      {rows.map((row) => (
        <UsageMeter key={row.id} row={row} />
      ))}
    </ul>
  );
}

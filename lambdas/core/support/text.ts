// The support tool's readable output: aligned tables for people (`--json` prints the same data for scripts). Every
// value users wrote (titles, names, reasons, errors) goes through printable(): stored text can never move the
// operator's cursor, recolour a line or make a link (security audit M8).
import { printable } from '../plain-text';
import type { AuditEntry } from './ports';
import type { FindResult, UserReport } from './support';

/** Columns padded to their widest cell, two spaces apart, a rule under the header. */
export function table(headers: string[], cells: string[][]): string {
  const rows = cells.map((row) => row.map(printable));
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** Binary units, as the plans count storage (lambdas/core/plans.ts). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** ISO time without milliseconds, in UTC. */
const when = (iso: string | undefined) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '-');

const detailsText = (details: Record<string, string | number>) =>
  Object.entries(details)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

export function auditText(entries: AuditEntry[]): string {
  if (!entries.length) return 'No support actions recorded.';
  return table(
    ['WHEN', 'ACTION', 'OUTCOME', 'OPERATOR', 'REASON', 'DETAILS'],
    entries.map((entry) => [
      when(entry.at),
      entry.action,
      entry.outcome,
      `${entry.operator.name} (${entry.operator.credentials})`,
      entry.reason ?? '-',
      detailsText(entry.details),
    ]),
  );
}

function reportText(report: UserReport): string {
  const { user, subscription, usage, media, streams } = report;
  const plan = [subscription.plan, subscription.period, subscription.state].filter(Boolean).join(' · ');
  const facts: [string, string][] = [
    ['User', `${user.id}  ${user.email}  (${user.displayName}, ${user.language})`],
    ['Status', user.status],
    ['Created', `${when(user.createdAt)}, confirmed ${when(user.confirmedAt)}`],
    [
      'Plan',
      `${plan}${subscription.active ? '' : ' (blocked)'}; cycle ends ${when(subscription.cycleEnd)}${subscription.cancelAtPeriodEnd ? ', canceled at period end' : ''}${subscription.graceEndsAt ? `; grace ends ${when(subscription.graceEndsAt)}` : ''}`,
    ],
    ['Payments', String(subscription.payments)],
    [
      'Storage',
      `${formatBytes(usage.storageBytes)} of ${formatBytes(usage.storageLimitBytes)} in ${media.items} items${media.encoding ? ` (${media.encoding} encoding)` : ''}`,
    ],
    ['Uploads', `${usage.uploadsThisCycle} of ${usage.uploadsPerCycle} this cycle`],
    ['Streams', `${usage.runningStreams} of ${usage.concurrentStreams} running`],
  ];
  const width = Math.max(...facts.map(([name]) => name.length));
  const sections = [facts.map(([name, value]) => `${name.padEnd(width)}  ${printable(value)}`).join('\n')];
  if (streams.length) {
    sections.push(
      table(
        ['STREAM', 'TITLE', 'STATUS', 'RESTARTS', 'STARTED', 'LAST ERROR'],
        streams.map((stream) => [stream.id, stream.title, stream.status, String(stream.restarts), when(stream.startedAt), stream.lastError ?? '-']),
      ),
    );
  }
  sections.push(`Audit trail:\n${auditText(report.audit)}`);
  return sections.join('\n\n');
}

export function findText(result: FindResult): string {
  if (result.found) return reportText(result.report);
  return `No account matches "${printable(result.query)}".\n\nAudit trail:\n${auditText(result.audit)}`;
}

/** What a suspend, reactivate or terminate did. */
export function actionText(entry: AuditEntry): string {
  const lines = [
    `${entry.action}: done for ${printable(entry.userId)} at ${when(entry.at)}`,
    ...Object.entries(entry.details).map(([name, value]) => `  ${name}: ${printable(String(value))}`),
  ];
  if (entry.action === 'terminate' && Number(entry.details.transcodesInFlight) > 0) {
    lines.push(`A transcode was still running: run terminate again on ${entry.userId} in an hour to remove what it writes.`);
  }
  return lines.join('\n');
}

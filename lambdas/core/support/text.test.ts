import type { AuditEntry } from './ports';
import type { UserReport } from './support';
import { actionText, findText, formatBytes, table } from './text';

const entry: AuditEntry = {
  userId: 'u-1',
  emailHash: 'h',
  action: 'terminate',
  at: '2026-03-01T10:20:30.456Z',
  operator: { name: 'ana', credentials: 'aws:AKIAEXAMPLE' },
  reason: 'repeated strikes',
  outcome: 'done',
  details: { streamsStopped: 1, transcodesInFlight: 1 },
};

describe('support output', () => {
  test('tables pad every column to its widest cell, with a rule under the header', () => {
    expect(
      table(
        ['ID', 'STATUS'],
        [
          ['a', 'started'],
          ['bbbb', 'x'],
        ],
      ),
    ).toBe('ID    STATUS\n----  -------\na     started\nbbbb  x');
  });

  test('sizes in binary units, as the plans count them', () => {
    expect([0, 1023, 1024, 5 * 1024 ** 3, 1.5 * 1024 ** 2, 250 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.00 KB',
      '5.00 GB',
      '1.50 MB',
      '250.0 GB',
    ]);
  });

  test('an account: facts, streams and audit trail', () => {
    const report: UserReport = {
      user: { id: 'u-1', email: 'ana@example.com', displayName: 'Ana', language: 'es', status: 'suspended', createdAt: '2026-01-01T00:00:00.000Z' },
      subscription: {
        plan: 'pro',
        period: 'month',
        state: 'payment-failed',
        active: false,
        cycleEnd: '2026-02-01T00:00:00.000Z',
        cancelAtPeriodEnd: false,
        graceEndsAt: '2026-02-02T00:00:00.000Z',
        payments: 2,
      },
      usage: {
        storageBytes: 3 * 1024 ** 3,
        storageLimitBytes: 250 * 1024 ** 3,
        runningStreams: 0,
        concurrentStreams: 5,
        uploadsThisCycle: 4,
        uploadsPerCycle: 150,
      },
      media: { items: 3, encoding: 1 },
      streams: [{ id: 's-1', title: 'Lo-fi', status: 'stopped', restarts: 2, lastError: 'account suspended' }],
      audit: [{ ...entry, action: 'suspend', details: { streamsStopped: 1 } }],
    };
    const text = findText({ found: true, report });
    expect(text).toContain('User      u-1  ana@example.com  (Ana, es)');
    expect(text).toContain('Created   2026-01-01 00:00:00 UTC, confirmed -');
    expect(text).toContain('Plan      pro · month · payment-failed (blocked); cycle ends 2026-02-01 00:00:00 UTC; grace ends 2026-02-02 00:00:00 UTC');
    expect(text).toContain('Storage   3.00 GB of 250.0 GB in 3 items (1 encoding)');
    expect(text).toMatch(/^s-1\s+Lo-fi\s+stopped\s+2\s+-\s+account suspended$/m);
    expect(text).toMatch(/^2026-03-01 10:20:30 UTC\s+suspend\s+done\s+ana \(aws:AKIAEXAMPLE\)\s+repeated strikes\s+streamsStopped=1$/m);
  });

  test('a termination with a transcode in flight says to sweep again', () => {
    expect(actionText(entry)).toBe(
      [
        'terminate: done for u-1 at 2026-03-01 10:20:30 UTC',
        '  streamsStopped: 1',
        '  transcodesInFlight: 1',
        'A transcode was still running: run terminate again on u-1 in an hour to remove what it writes.',
      ].join('\n'),
    );
    expect(findText({ found: false, query: 'x@example.com', audit: [] })).toBe(
      'No account matches "x@example.com".\n\nAudit trail:\nNo support actions recorded.',
    );
  });

  // Security audit M8: a stream titled with terminal escapes printed a forged red line and a clickable link.
  test('what users wrote is shown with every control and invisible character escaped', () => {
    const forged = 'ok\u001b[2K\r\u001b[31mSUSPENDED by ops\u001b[0m \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007';
    const report: UserReport = {
      user: { id: 'u-1', email: 'ana@example.com', displayName: 'Ana\u202E', language: 'en', status: 'active', createdAt: '2026-01-01T00:00:00.000Z' },
      subscription: { plan: 'trial', state: 'trial', active: true, cycleEnd: '2026-01-04T00:00:00.000Z', cancelAtPeriodEnd: false, payments: 0 },
      usage: { storageBytes: 0, storageLimitBytes: 1, runningStreams: 0, concurrentStreams: 1, uploadsThisCycle: 0, uploadsPerCycle: 5 },
      media: { items: 0, encoding: 0 },
      streams: [{ id: 's-1', title: forged, status: 'stopped', restarts: 0, lastError: 'bad\u001bx' }],
      audit: [{ ...entry, reason: 'why\r\u001b[1A', details: { error: 'x\u0007' } }],
    };
    const text = findText({ found: true, report }) + actionText({ ...entry, details: { error: 'y\u001b' } });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('ok\\u{1B}[2K\\u{D}\\u{1B}[31mSUSPENDED by ops');
    expect(text).toContain('(Ana\\u{202E}, en)');
  });
});

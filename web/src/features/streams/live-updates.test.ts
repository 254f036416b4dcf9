import { refreshDue } from './live-updates';

describe('asking the API when realtime is quiet', () => {
  const now = 1_000_000;

  test('stopped streams are never polled', () => {
    expect(refreshDue([{ status: 'stopped', lastNewsAt: 0 }], now)).toBe(false);
    expect(refreshDue([], now)).toBe(false);
  });

  test('a live stream is asked about when a heartbeat is overdue, not before', () => {
    expect(refreshDue([{ status: 'started', lastNewsAt: now - 40_000 }], now)).toBe(false);
    expect(refreshDue([{ status: 'started', lastNewsAt: now - 45_000 }], now)).toBe(true);
  });

  test('starting, stopping and waiting for transcoding are asked about every few seconds', () => {
    expect(refreshDue([{ status: 'pending', lastNewsAt: now - 2_000 }], now)).toBe(false);
    expect(refreshDue([{ status: 'pending', lastNewsAt: now - 3_000 }], now)).toBe(true);
    expect(refreshDue([{ status: 'stopping', lastNewsAt: now - 3_000 }], now)).toBe(true);
    expect(refreshDue([{ status: 'encoding', lastNewsAt: now - 4_000 }], now)).toBe(false);
    expect(refreshDue([{ status: 'encoding', lastNewsAt: now - 5_000 }], now)).toBe(true);
  });

  test('one quiet stream is enough', () => {
    expect(
      refreshDue(
        [
          { status: 'stopped', lastNewsAt: 0 },
          { status: 'started', lastNewsAt: now },
          { status: 'pending', lastNewsAt: now - 9_000 },
        ],
        now,
      ),
    ).toBe(true);
  });
});

import { egressBytesBetween, egressMeter } from './egress';
import type { Heartbeat } from './heartbeat';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, seconds)).toISOString();

function heartbeat(seconds: number, overrides: Partial<Heartbeat> = {}): Heartbeat {
  return {
    streamId: 's1',
    desired: 'running',
    actual: 'started',
    since: at(0),
    uptimeSeconds: seconds,
    bitrateKbps: 6128,
    fps: 30,
    speed: 1,
    loops: 0,
    restarts: 0,
    scheduledRestarts: 0,
    destinations: [{ id: 'a', state: 'ok' }],
    at: at(seconds),
    ...overrides,
  };
}

describe('egress from heartbeats', () => {
  test('the measured bitrate over the time since the previous heartbeat, once per destination that is up', () => {
    expect(egressBytesBetween(heartbeat(0), heartbeat(10))).toBe((6128 * 1000) / 8 * 10);
    const three = [{ id: 'a', state: 'ok' }, { id: 'b', state: 'failed' }, { id: 'c', state: 'ok' }] as const;
    expect(egressBytesBetween(heartbeat(0), heartbeat(10, { destinations: [...three] }))).toBe((6128 * 1000) / 8 * 10 * 2);
  });

  test('nothing while not streaming; a long gap counts only as long as the bitrate was measured for', () => {
    expect(egressBytesBetween(heartbeat(0), heartbeat(10, { actual: 'restarting', bitrateKbps: 0 }))).toBe(0);
    expect(egressBytesBetween(heartbeat(0), heartbeat(10, { bitrateKbps: 0 }))).toBe(0);
    expect(egressBytesBetween(heartbeat(0), heartbeat(50), 30_000)).toBe((6128 * 1000) / 8 * 30);
    expect(egressBytesBetween(heartbeat(10), heartbeat(5))).toBe(0);
  });

  test('reported about once a minute, the sum since the last report; a minute with nothing sent is not reported', () => {
    const reports: number[] = [];
    const meter = egressMeter((bytes) => reports.push(bytes));
    for (let seconds = 0; seconds <= 120; seconds += 10) meter(heartbeat(seconds));
    expect(reports).toEqual([(6128 * 1000) / 8 * 60, (6128 * 1000) / 8 * 60]);
    for (let seconds = 130; seconds <= 180; seconds += 10) meter(heartbeat(seconds, { actual: 'restarting', bitrateKbps: 0 }));
    expect(reports).toHaveLength(2);
  });
});

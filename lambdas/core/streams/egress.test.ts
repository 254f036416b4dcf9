import { egressBytesBetween } from './egress';
import type { StreamHealth } from './stream';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, seconds)).toISOString();

function health(seconds: number, overrides: Partial<StreamHealth> = {}): StreamHealth {
  return {
    actual: 'started',
    uptimeSeconds: seconds,
    bitrateKbps: 6128,
    fps: 30,
    speed: 1,
    loops: 0,
    taskRestarts: 0,
    scheduledRestarts: 0,
    destinations: [{ id: 'a', state: 'ok' }],
    at: at(seconds),
    ...overrides,
  };
}

describe('egress from heartbeats', () => {
  test('the measured bitrate over the time since the previous heartbeat, once per destination that is up', () => {
    expect(egressBytesBetween(health(0), health(10))).toBe(((6128 * 1000) / 8) * 10);
    const three = [
      { id: 'a', state: 'ok' },
      { id: 'b', state: 'failed' },
      { id: 'c', state: 'ok' },
    ] as const;
    expect(egressBytesBetween(health(0), health(10, { destinations: [...three] }))).toBe(((6128 * 1000) / 8) * 10 * 2);
  });

  test('nothing while not streaming; a long gap counts only as long as the bitrate was measured for', () => {
    expect(egressBytesBetween(health(0), health(10, { actual: 'restarting', bitrateKbps: 0 }))).toBe(0);
    expect(egressBytesBetween(health(0), health(10, { bitrateKbps: 0 }))).toBe(0);
    expect(egressBytesBetween(health(0), health(50), 30_000)).toBe(((6128 * 1000) / 8) * 30);
    expect(egressBytesBetween(health(10), health(5))).toBe(0);
  });
});

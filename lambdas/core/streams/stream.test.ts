import { AppError } from '../errors';
import { assertModifiable, healthVerdict, streamView, type Stream, type StreamHealth } from './stream';

const now = new Date('2026-11-21T12:00:00Z');
const health = (overrides: Partial<StreamHealth> = {}): StreamHealth => ({
  actual: 'started',
  uptimeSeconds: 100,
  bitrateKbps: 6100,
  fps: 30,
  speed: 1,
  loops: 3,
  taskRestarts: 0,
  scheduledRestarts: 0,
  destinations: [{ id: 'c1', state: 'ok' }],
  at: new Date(now.getTime() - 5000).toISOString(),
  ...overrides,
});
const stream = (overrides: Partial<Stream> = {}): Stream => ({
  id: 's1',
  userId: 'u1',
  title: 'Loop',
  channelIds: ['c1'],
  restartTimes: [],
  timeZone: 'UTC',
  desired: 'running',
  status: 'started',
  runId: 'r1',
  executionName: 'r1-0',
  restarts: 0,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  health: health(),
  ...overrides,
});

describe('stream rules', () => {
  test.each([
    ['pending', 'stream pending'],
    ['stopping', 'stream pending'],
    ['encoding', 'stream encoding'],
    ['started', 'stream started'],
  ] as const)('a %s stream cannot be modified: %s', (status, key) => {
    expect(() => assertModifiable(stream({ status }))).toThrow(new AppError(key));
  });

  test('a stopped stream can be modified', () => {
    expect(() => assertModifiable(stream({ status: 'stopped' }))).not.toThrow();
  });

  test('the health verdict', () => {
    expect(healthVerdict(stream(), now)).toBe('healthy');
    expect(
      healthVerdict(
        stream({
          health: health({
            destinations: [
              { id: 'c1', state: 'ok' },
              { id: 'c2', state: 'failed' },
            ],
          }),
        }),
        now,
      ),
    ).toBe('degraded');
    expect(healthVerdict(stream({ health: health({ speed: 0.85 }) }), now)).toBe('degraded');
    expect(healthVerdict(stream({ health: health({ speed: 0.93 }) }), now)).toBe('healthy');
    expect(healthVerdict(stream({ health: health({ at: new Date(now.getTime() - 91_000).toISOString() }) }), now)).toBe('recovering');
    expect(healthVerdict(stream({ health: health({ actual: 'restarting' }) }), now)).toBe('recovering');
    expect(healthVerdict(stream({ status: 'pending' }), now)).toBe('recovering');
    expect(healthVerdict(stream({ status: 'stopped' }), now)).toBe('offline');
  });

  test('the view hides the owner and the run bookkeeping', () => {
    const view = streamView(stream(), now);
    expect(view).not.toHaveProperty('userId');
    expect(view).not.toHaveProperty('runId');
    expect(view).not.toHaveProperty('executionName');
    expect(streamView(stream({ lease: { holder: 'task-1', expiresAt: 1, updatedAt: now.toISOString() } }), now)).not.toHaveProperty('lease');
    expect(view).toMatchObject({ id: 's1', status: 'started', verdict: 'healthy' });
  });
});

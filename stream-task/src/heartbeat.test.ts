import { PassThrough } from 'node:stream';
import { HeartbeatPublisher, InMemoryHeartbeatSink, JsonLinesHeartbeatSink, parseHeartbeatLine, type HeartbeatSink } from './heartbeat';
import type { Heartbeat } from '../../lambdas/contract/stream-task';

const heartbeat = (actual: Heartbeat['actual'], restarts = 0): Heartbeat => ({
  streamId: 's1',
  desired: 'running',
  actual,
  since: '2025-06-01T11:00:00.000Z',
  uptimeSeconds: 0,
  bitrateKbps: 0,
  fps: 0,
  speed: 0,
  loops: 0,
  restarts,
  scheduledRestarts: 0,
  destinations: [{ id: 'yt', state: 'failed' }],
  at: '2025-06-01T11:00:00.000Z',
});

describe('heartbeats', () => {
  test('JSON lines round-trip; other lines are not heartbeats', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    await new JsonLinesHeartbeatSink(out).send(heartbeat('started'));
    expect(chunks.join('')).toMatch(/^\{.*\}\n$/);
    expect(parseHeartbeatLine(chunks.join('').trim())).toEqual(heartbeat('started'));
    expect(parseHeartbeatLine('2025-06-01T11:00:00Z [stream s1] started')).toBeUndefined();
    expect(parseHeartbeatLine('{"not":"a heartbeat"}')).toBeUndefined();
    expect(parseHeartbeatLine('{broken')).toBeUndefined();
  });

  test('the publisher sends in order, one at a time, and skips states overtaken while a send was in flight', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const slow: HeartbeatSink = {
      send: (h) =>
        new Promise((resolve) => {
          sent.push(`${h.actual}/${h.restarts}`);
          release = resolve;
        }),
    };
    const publisher = new HeartbeatPublisher(slow, () => {});
    publisher.publish(heartbeat('started'));
    publisher.publish(heartbeat('restarting', 1));
    publisher.publish(heartbeat('starting', 1));
    expect(sent).toEqual(['started/0']);
    release();
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['started/0', 'starting/1']);
    release();
    await publisher.flush();
    expect(sent).toEqual(['started/0', 'starting/1']);
  });

  test('waitFor resolves on a matching heartbeat and times out with the latest one in the message', async () => {
    const sink = new InMemoryHeartbeatSink();
    const waiting = sink.waitFor((h) => h.restarts === 1, 1_000);
    await sink.send(heartbeat('started'));
    await sink.send(heartbeat('started', 1));
    await expect(waiting).resolves.toMatchObject({ restarts: 1 });
    await expect(sink.waitFor((h) => h.actual === 'stopped', 20, 'actual stopped')).rejects.toThrow(
      /no heartbeat with actual stopped within 20 ms; latest: .*"restarts":1/,
    );
  });
});

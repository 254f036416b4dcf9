// npm run bench:ws — delivery latency of realtime events on the local stack: N browsers (WebSocket clients) of one
// user, R broadcasts through the same publisher the handlers use; prints p50/p99 from publish to receipt.
import { api, signedInUser } from '../test/helpers/accounts';
import { percentile, startEphemeralStack } from './ephemeral-stack';

const CONNECTIONS = Number(process.env.BENCH_WS_CONNECTIONS ?? 200);
const ROUNDS = Number(process.env.BENCH_WS_ROUNDS ?? 20);

const stack = await startEphemeralStack();
try {
  const user = await signedInUser(stack, 'bench');
  const latencies: number[] = [];
  const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    const { body } = await api(stack, 'GET', '/ws', { token: user.token });
    const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
    socket.addEventListener('message', (message) => {
      const event = JSON.parse(String(message.data)) as { health: { sentAt: number } };
      latencies.push(performance.now() + performance.timeOrigin - event.health.sentAt);
    });
    await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
    return socket;
  }));

  const roundTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const expected = (round + 1) * CONNECTIONS;
    const started = performance.now();
    await stack.deps.realtime.publish(user.userId, { type: 'stream.heartbeat', streamId: 'bench', verdict: 'healthy', health: { sentAt: performance.now() + performance.timeOrigin } });
    while (latencies.length < expected) await new Promise((r) => setTimeout(r, 1));
    roundTimes.push(performance.now() - started);
  }
  for (const socket of sockets) socket.close();

  const sorted = [...latencies].sort((a, b) => a - b);
  const rounds = [...roundTimes].sort((a, b) => a - b);
  console.log(`realtime delivery, ${CONNECTIONS} connections x ${ROUNDS} broadcasts (${latencies.length} messages):`);
  console.log(`  per message  p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${sorted.at(-1)!.toFixed(1)} ms`);
  console.log(`  whole broadcast (last connection served)  p50 ${percentile(rounds, 50).toFixed(1)} ms   p99 ${percentile(rounds, 99).toFixed(1)} ms`);
  console.log(`  goal: every connection within 1000 ms -> ${rounds.at(-1)! <= 1000 ? 'met' : 'NOT met'}`);
} finally {
  await stack.stop();
}

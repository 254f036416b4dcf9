// npm run bench:ws [-- --quick] — delivery latency of realtime events on the local stack: N browsers (WebSocket
// clients) of one user, R broadcasts through the same publisher the handlers use; prints p50/p99 from publish to
// receipt, for each N (BENCH_WS_CONNECTIONS, "200,2000" by default, "200" quick; BENCH_WS_ROUNDS, 20), and
// records them in bench/results/ws.jsonl. Then the publisher's CPU for one PostToConnection (bench/post-cost.ts).
import { api, signedInUser } from '../test/helpers/accounts';
import { postCost } from './post-cost';
import { percentile, startEphemeralStack } from './ephemeral-stack';
import { figure, goalText, quick, recordResults, type Figure } from './results';

const COUNTS = (process.env.BENCH_WS_CONNECTIONS ?? (quick ? '200' : '200,2000')).split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_WS_ROUNDS ?? 20);
/** Connections opened at once while setting up (each asks GET /ws for a token first). */
const OPENING_AT_ONCE = 50;

const figures: Record<string, Figure> = {};
const stack = await startEphemeralStack();
try {
  const user = await signedInUser(stack, 'bench');
  let latencies: number[] = [];
  const sockets: WebSocket[] = [];
  const open = async () => {
    const { body } = await api(stack, 'GET', '/ws', { token: user.token });
    const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
    socket.addEventListener('message', (message) => {
      const event = JSON.parse(String(message.data)) as { health: { sentAt: number } };
      latencies.push(performance.now() + performance.timeOrigin - event.health.sentAt);
    });
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    return socket;
  };
  for (const connections of COUNTS) {
    while (sockets.length < connections)
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, connections - sockets.length) }, open))));
    latencies = [];
    const roundTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const expected = (round + 1) * connections;
      const started = performance.now();
      await stack.deps.realtime.publish(user.userId, {
        type: 'stream.heartbeat',
        streamId: 'bench',
        verdict: 'healthy',
        health: { sentAt: performance.now() + performance.timeOrigin },
      });
      while (latencies.length < expected) await new Promise((r) => setTimeout(r, 1));
      roundTimes.push(performance.now() - started);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const rounds = [...roundTimes].sort((a, b) => a - b);
    const p99 = figure(Number(percentile(sorted, 99).toFixed(1)), 'ms', connections <= 200 ? { op: '<=', value: 150 } : undefined);
    const lastServed = figure(Number(rounds.at(-1)!.toFixed(1)), 'ms', { op: '<=', value: 1000 });
    figures[`p50 at ${connections}`] = figure(Number(percentile(sorted, 50).toFixed(1)), 'ms');
    figures[`p99 at ${connections}`] = p99;
    figures[`whole broadcast worst at ${connections}`] = lastServed;
    console.log(`realtime delivery, ${connections} connections x ${ROUNDS} broadcasts (${latencies.length} messages):`);
    console.log(`  per message  p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${p99.value} ms ${goalText(p99)}   max ${sorted.at(-1)!.toFixed(1)} ms`);
    console.log(
      `  whole broadcast (last connection served)  p50 ${percentile(rounds, 50).toFixed(1)} ms   worst ${lastServed.value} ms ${goalText(lastServed)}`,
    );
    // The first broadcast also opens the publisher's keep-alive sockets and runs its code cold, as a fresh Lambda's does.
    console.log(`  each broadcast in turn (ms): ${roundTimes.map((time) => time.toFixed(0)).join(' ')}`);
    figures[`first broadcast at ${connections}`] = figure(Number(roundTimes[0]!.toFixed(1)), 'ms');
  }
  for (const socket of sockets) socket.close();
  // After the latencies, whose first broadcast is then as cold as a fresh Lambda's.
  const perPost = await postCost();
  figures['publisher CPU per post, SDK send'] = figure(perPost.sdkSend, 'us');
  figures['publisher CPU per post, poster'] = figure(perPost.poster, 'us');
  console.log(`publisher CPU per PostToConnection: client.send ${perPost.sdkSend} us, ConnectionPoster ${perPost.poster} us`);
  recordResults('ws', figures, { rounds: ROUNDS });
} finally {
  await stack.stop();
}

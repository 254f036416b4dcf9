import { api, signedInUser } from '../test/helpers/accounts';
import { startEphemeralStack } from './ephemeral-stack';
import { ConnectionsStore } from '../lambdas/adapters/dynamo/connections-store';
const N = Number(process.env.N ?? 200);
const stack = await startEphemeralStack();
try {
  const user = await signedInUser(stack, 'bench');
  let got = 0;
  const sockets = [];
  for (let i = 0; i < N; i += 50) sockets.push(...await Promise.all(Array.from({ length: Math.min(50, N - i) }, async () => {
    const { body } = await api(stack, 'GET', '/ws', { token: user.token });
    const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
    socket.addEventListener('message', () => { got++; });
    await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
    return socket;
  })));
  const { Session } = await import('node:inspector/promises');
  const session = new Session(); session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start');
  const store = new ConnectionsStore(stack.deps.db, stack.deps.config.tables.app);
  for (let r = 0; r < 5; r++) {
    let t = performance.now();
    const ids = await store.ofUser(user.userId, new Date());
    const q = performance.now() - t;
    t = performance.now();
    const before = got;
    await stack.deps.realtime.publish(user.userId, { type: 'stream.heartbeat', streamId: 'bench', verdict: 'healthy', health: { sentAt: 0 } } as never);
    const p = performance.now() - t;
    while (got - before < N) await new Promise((r) => setTimeout(r, 1));
    console.log(`ids ${ids.length} query ${q.toFixed(0)} ms; publish ${p.toFixed(0)} ms; all received ${(performance.now() - t).toFixed(0)} ms`);
  }
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync('/tmp/publish.cpuprofile', JSON.stringify(profile));
  for (const s of sockets) s.close();
} finally { await stack.stop(); }

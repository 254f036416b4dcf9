// npm run bench:control-plane
//   BENCH_CONTROL_PLANE_MINUTES (default 10: half without anyone watching, half with the stream's page open)
//
// What one running stream costs the control plane, measured: DynamoDB read and write request units per stream-hour,
// from DynamoDB Local's own consumed-capacity figures (bench/dynamo-meter.ts sees every request of the handlers and
// of the stream task), by operation; with nobody watching and with one browser connected to the realtime API (whose
// pushes query the user's connections). The lifecycle, the task API, the reconciler and upkeep all run as they do
// on `npm start`. It uses only what every version of the product has, so it can be run on an older commit to
// compare (docs/costs.md, "Control plane, measured").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { freePort } from '../local/ports';
import { startS3Server } from '../local/s3-server';
import { startLocalStack } from '../local/stack';
import { api, signedInUser } from '../test/helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../test/helpers/media';
import { listenRealtime } from '../test/helpers/realtime';
import { startDynamoMeter, type OperationUsage } from './dynamo-meter';

const minutes = Number(process.env.BENCH_CONTROL_PLANE_MINUTES ?? 10);
const billedWriteUnits = (usage: OperationUsage) => usage.writeUnits + usage.conditionFailures;

function perHour(usage: Record<string, OperationUsage>, measuredMinutes: number) {
  const scale = 60 / measuredMinutes;
  const rows = Object.entries(usage).map(([operation, u]) => ({
    operation,
    requests: Math.round(u.requests * scale),
    readUnits: Number((u.readUnits * scale).toFixed(1)),
    writeUnits: Number((billedWriteUnits(u) * scale).toFixed(1)),
  }));
  return {
    readUnits: Number(rows.reduce((sum, row) => sum + row.readUnits, 0).toFixed(1)),
    writeUnits: Number(rows.reduce((sum, row) => sum + row.writeUnits, 0).toFixed(1)),
    byOperation: rows.sort((a, b) => b.writeUnits + b.readUnits - (a.writeUnits + a.readUnits)),
  };
}

async function measure(label: string, meter: Awaited<ReturnType<typeof startDynamoMeter>>, phaseMinutes: number) {
  meter.reset();
  await new Promise((resolve) => setTimeout(resolve, phaseMinutes * 60_000));
  const figures = perHour(meter.usage(), phaseMinutes);
  console.log(`${label}: ${figures.readUnits} read units and ${figures.writeUnits} write units per stream-hour`);
  for (const row of figures.byOperation)
    console.log(
      `  ${row.operation.padEnd(20)} ${String(row.requests).padStart(6)} requests  ${String(row.readUnits).padStart(8)} RRU  ${String(row.writeUnits).padStart(8)} WRU`,
    );
  return figures;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-control-plane-'));
  const dynamo = await startDynamoDbLocal({ port: await freePort(), logFile: join(dir, 'dynamodb-local.log') });
  const meter = await startDynamoMeter(dynamo.endpoint);
  const s3 = await startS3Server({ port: await freePort(), directory: join(dir, 's3') });
  const stack = await startLocalStack({
    dataDir: dir,
    persistent: false,
    namePrefix: 'bench-',
    ports: { http: 0, realtime: 0, dynamodb: 0, s3: 0, rtmp: await freePort(), hls: await freePort() },
    dynamodbEndpoint: meter.url,
    s3Endpoint: s3.endpoint,
    rtmp: true,
  });
  try {
    const user = await signedInUser(stack, 'meter');
    const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 4 })).bytes);
    await waitForItem(stack, user.token, videoId);
    const channel = await api(stack, 'POST', '/channels/rtmp', {
      token: user.token,
      body: { name: 'Local', url: stack.urls.rtmp, key: `meter-${user.userId.slice(0, 8)}` },
    });
    const stream = await api(stack, 'POST', '/streams', { token: user.token, body: { title: 'Metered', videoId, channelIds: [channel.body.id] } });
    await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: user.token });
    await waitForStreamStatus(stack, user.token, stream.body.id, 'started', 90_000);
    // Let the start's own writes pass: what is measured is a stream that runs.
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    const unwatched = await measure('nobody watching', meter, minutes / 2);
    const browser = await listenRealtime(stack, user.token);
    const watched = await measure("the stream's page open", meter, minutes / 2);
    browser.close();
    console.log(JSON.stringify({ minutes, unwatched, watched }, null, 2));
  } finally {
    await stack.stop();
    await meter.stop();
    await s3.stop();
    await dynamo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

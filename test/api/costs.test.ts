// `npm run costs` as a child process: what it prints for the data planes and bitrates asked, and its usage errors.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { priceTableText } from '../../lambdas/core/costs/price-table';
import { streamMonthCost } from '../../lambdas/core/costs/model';
import { repoRoot } from '../../local/paths';

const execFileAsync = promisify(execFile);

async function costs(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', join(repoRoot, 'bin', 'costs.ts'), ...args], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

test('by default: both data planes at 3, 4.5 and 6 Mbit/s for a fleet of 25, lines and margins', async () => {
  const result = await costs([]);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toContain('what a stream-month costs in a fleet of 25 streams running 24/7');
  expect(result.stdout).toContain('typed in by hand from public pages on 2026-11-24: not a live quote');
  expect(result.stdout).toContain('== fargate: every stream is its own ECS Fargate task ==');
  expect(result.stdout).toContain('== external: copy loops packed on ECS Anywhere hosts whose traffic is included ==');
  expect(result.stdout).toMatch(/^USD PER STREAM-MONTH\s+3 Mbit\/s\s+4\.5 Mbit\/s\s+6 Mbit\/s$/m);
  const total = (plane: 'fargate' | 'external', videoMbps: number) => streamMonthCost({ plane, videoMbps, streams: 25 }).totalUsd.toFixed(2);
  const totals = [...result.stdout.matchAll(/^TOTAL without Stripe\s+(\S+)\s+(\S+)\s+(\S+)$/gm)].map((match) => match.slice(1));
  expect(totals).toEqual([
    [total('fargate', 3), total('fargate', 4.5), total('fargate', 6)],
    [total('external', 3), total('external', 4.5), total('external', 6)],
  ]);
  expect(result.stdout).toMatch(/^basic\s+month\s+8\.99\s+0\.76\s/m);
  expect(result.stdout).toMatch(/^trial\s+per trial\s+free\s/m);
  expect(result.stdout).toContain('Custom at full use breaks even at');
});

test('--plane external --bitrate 4.5 --streams 200: that plane, that bitrate, that fleet; its hosts named', async () => {
  const result = await costs(['--plane', 'external', '--bitrate', '4.5', '--streams', '200']);
  expect(result.code).toBe(0);
  expect(result.stdout).not.toContain('== fargate');
  expect(result.stdout).toMatch(/^USD PER STREAM-MONTH\s+4\.5 Mbit\/s$/m);
  expect(result.stdout).toMatch(/^hosts\s+2 × dedicated-1gbit$/m);
  expect(result.stdout).toMatch(/^streams a host carries \(limited by\)\s+163 \(link\)$/m);
  expect(result.stdout).toMatch(/^compute: ECS Anywhere fee per host \(÷ 200\)\s+0\.07$/m);
  expect(result.stdout).toMatch(/^PLAN\s+PERIOD\s+PRICE\/MONTH\s+STRIPE\/MONTH\s+4\.5 Mbit\/s streams\s+4\.5 Mbit\/s full$/m);
  const forced = await costs(['--plane', 'external', '--bitrate', '6', '--streams', '200', '--host', 'cloud-20tb']);
  expect(forced.stdout).toMatch(/^hosts\s+20 × cloud-20tb$/m);
});

test('--prices prints the price table docs/costs.md carries', async () => {
  const result = await costs(['--prices']);
  expect(result).toEqual({ code: 0, stdout: priceTableText(), stderr: '' });
});

test('usage errors exit 2 with the usage', async () => {
  for (const [args, message] of [
    [['--plane', 'ec2'], '--plane "ec2" is not one of fargate, external'],
    [['--bitrate', 'fast'], '--bitrate "fast" is not a bitrate in Mbit/s'],
    [['--bitrate', '0'], '--bitrate "0" is not a bitrate in Mbit/s'],
    [['--streams', '0'], '--streams "0" is not a whole number from 1 to 1,000,000'],
    [['--host', 'ec2'], '--host "ec2" is not one of auto, cloud-20tb, dedicated-1gbit'],
    [['--fast'], "Unknown option '--fast'"],
  ] as const) {
    const result = await costs([...args]);
    expect([args, result.code]).toEqual([args, 2]);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: npm run costs');
  }
});

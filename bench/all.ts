// npm run bench [-- --quick]: every benchmark, one after the other, each as its own process (a crash or a missed
// goal in one does not stop the others). Each records its figures in bench/results/<bench>.jsonl; this prints a
// summary of the lines they appended and exits non-zero when a benchmark failed to run.
// --quick: smaller sizes, fewer steps and shorter windows (under 10 minutes on 2 cores); quick figures are
// recorded with "quick": true and are not comparable with full runs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quick, RESULTS_DIR } from './results';

const BENCHES = ['upload', 'ws', 'stream', 'wire', 'start', 'cold-start', 'web'] as const;
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const chosen = only.length ? BENCHES.filter((bench) => only.includes(bench)) : BENCHES;

const lineCount = (bench: string) => {
  const file = join(RESULTS_DIR, `${bench}.jsonl`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
};

const started = performance.now();
const outcomes: { bench: string; code: number | null; seconds: number; recorded: string[] }[] = [];
for (const bench of chosen) {
  const before = lineCount(bench);
  const benchStarted = performance.now();
  console.log(`\n==== bench:${bench}${quick ? ' (quick)' : ''} ====`);
  const child = spawn(process.execPath, [...process.execArgv, join(import.meta.dirname, `${bench}.ts`), ...(quick ? ['--quick'] : [])], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_QUICK: quick ? '1' : '0' },
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = existsSync(join(RESULTS_DIR, `${bench}.jsonl`))
    ? readFileSync(join(RESULTS_DIR, `${bench}.jsonl`), 'utf8')
        .split('\n')
        .filter(Boolean)
    : [];
  outcomes.push({ bench, code, seconds: (performance.now() - benchStarted) / 1000, recorded: lines.slice(before) });
}

console.log(`\n==== summary (${((performance.now() - started) / 60_000).toFixed(1)} min) ====`);
for (const { bench, code, seconds, recorded } of outcomes) {
  console.log(`bench:${bench}: exit ${code}, ${seconds.toFixed(0)} s`);
  for (const line of recorded) {
    const { figures } = JSON.parse(line) as { figures: Record<string, { value: number; unit: string; goal?: { op: string; value: number }; met?: boolean }> };
    for (const [name, f] of Object.entries(figures)) {
      if (f.goal)
        console.log(`  ${name.padEnd(30)} ${String(f.value).padStart(9)} ${f.unit.padEnd(5)} goal ${f.goal.op} ${f.goal.value}: ${f.met ? 'met' : 'NOT met'}`);
    }
  }
  if (recorded.length === 0) console.log('  nothing recorded');
}
// A benchmark that ran and recorded but missed a goal exits 1 too (bench:upload on a byte mismatch, bench:web
// below a bar); only "nothing recorded" means it did not run.
process.exit(outcomes.every(({ recorded }) => recorded.length > 0) ? 0 : 1);

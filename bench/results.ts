// Every benchmark's figures as JSON lines in bench/results/<bench>.jsonl, one line a run, committed with the code:
// a regression shows as a diff. Each line carries the commit at the run's start, whether the work tree had changes,
// the machine's load average before and after, its speed at the start (a fixed single-core workload: the machines this
// runs on differ by up to 2.5x in CPU speed from one day to the next, and a figure is only compared with runs on as
// fast a machine), and whether it was a --quick run (quick and full figures are not comparable).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'results');

/** `--quick` on the command line or BENCH_QUICK=1 (what `npm run bench -- --quick` passes on). */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

const loadNow = () => loadavg().map((value) => Number(value.toFixed(2)));
const loadAtStart = loadNow();

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: RESULTS_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * The machine's single-core speed before the bench loads it, the best of five rounds of two fixed workloads:
 * V8's (JSON of a 1,000-entry object, round trip) and native code's (SHA-256 of 16 MiB, OpenSSL). Both fall with a
 * busy neighbour as the bench's own figures do; 2026-12-02's two machines read 2.5x apart on the test suite's CPU.
 */
function machineSpeed(): { jsonRoundTripsPerMs: number; sha256MiBPerS: number } {
  const sample = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`key${i}`, { id: i, name: `item ${i}`, tags: ['a', 'b'] }]));
  const bytes = Buffer.alloc(16 * 1024 ** 2, 7);
  let json = 0;
  let sha = 0;
  for (let round = 0; round < 5; round += 1) {
    let started = performance.now();
    for (let i = 0; i < 20; i += 1) JSON.parse(JSON.stringify(sample));
    json = Math.max(json, 20 / (performance.now() - started));
    started = performance.now();
    createHash('sha256').update(bytes).digest();
    sha = Math.max(sha, 16 / ((performance.now() - started) / 1000));
  }
  return { jsonRoundTripsPerMs: Number(json.toFixed(3)), sha256MiBPerS: Math.round(sha) };
}

const machine = { cores: cpus().length, memoryGiB: Math.round(totalmem() / 1024 ** 3), cpu: cpus()[0]?.model ?? 'unknown', speed: machineSpeed() };

/** The code a run measures is the work tree at its start: an hour's soak can outlive several commits. The records
 * themselves are not code: in a full `npm run bench`, the lines the first benchmarks appended are not changes the
 * later ones measure (until 2026-12-02 they were counted, so every benchmark after the first said `true`). */
const treeAtStart = {
  commit: git('rev-parse', '--short=12', 'HEAD'),
  uncommittedChanges: git('status', '--porcelain', '--untracked-files=no', '--', ':/', ':(top,exclude)bench/results') !== '',
};

/** A figure beside its goal: `met` is computed here, so the record and the printout say the same. */
export interface Figure {
  value: number;
  unit: string;
  goal?: { op: '<=' | '>=' | '<' | '>'; value: number };
}

export function figure(value: number, unit: string, goal?: Figure['goal']): Figure & { met?: boolean } {
  if (!goal) return { value, unit };
  const met = { '<=': value <= goal.value, '>=': value >= goal.value, '<': value < goal.value, '>': value > goal.value }[goal.op];
  return { value, unit, goal, met };
}

export const goalText = (f: Figure & { met?: boolean }) => (f.goal ? `(goal ${f.goal.op} ${f.goal.value} ${f.unit}: ${f.met ? 'met' : 'NOT met'})` : '');

/** Appends one run's figures (and whatever else describes the run) to bench/results/<bench>.jsonl. */
export function recordResults(bench: string, figures: Record<string, Figure>, details: Record<string, unknown> = {}): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const line = {
    bench,
    at: new Date().toISOString(),
    ...treeAtStart,
    quick,
    machine,
    loadAverage: { start: loadAtStart, end: loadNow() },
    figures,
    ...details,
  };
  const file = join(RESULTS_DIR, `${bench}.jsonl`);
  appendFileSync(file, `${JSON.stringify(line)}\n`);
  console.log(
    `  recorded in ${file} (machine: ${machine.cpu}, ${machine.speed.jsonRoundTripsPerMs} JSON round trips/ms, SHA-256 ${machine.speed.sha256MiBPerS} MiB/s)`,
  );
  return file;
}

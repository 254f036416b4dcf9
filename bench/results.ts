// Every benchmark's figures as JSON lines in bench/results/<bench>.jsonl, one line a run, committed with the code:
// a regression shows as a diff. Each line carries the commit at the run's start, whether the work tree had changes,
// the machine's load average before and after, and whether it was a --quick run (quick and full figures are not
// comparable).
import { execFileSync } from 'node:child_process';
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

/** The code a run measures is the work tree at its start: an hour's soak can outlive several commits. */
const treeAtStart = {
  commit: git('rev-parse', '--short=12', 'HEAD'),
  uncommittedChanges: git('status', '--porcelain', '--untracked-files=no') !== '',
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
    machine: { cores: cpus().length, memoryGiB: Math.round(totalmem() / 1024 ** 3) },
    loadAverage: { start: loadAtStart, end: loadNow() },
    figures,
    ...details,
  };
  const file = join(RESULTS_DIR, `${bench}.jsonl`);
  appendFileSync(file, `${JSON.stringify(line)}\n`);
  console.log(`  recorded in ${file}`);
  return file;
}

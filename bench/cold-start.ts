// npm run bench:cold-start
//
// What a Lambda cold start costs in Node before the first event: every function of the CDK app bundled exactly as
// `cdk deploy` bundles it (the app synthesized with bundling, the local esbuild), then imported by a fresh Node 24
// process with the function's own process settings (NODE_OPTIONS, glibc's MALLOC_*), as Lambda's runtime starts
// it. Per function: the import's time and the process's peak RSS (VmHWM) half a second after it, so work the
// import starts in the background counts too; the median of 5 processes (3 with --quick). Goal: no function's peak
// above 128 MiB after its import (a quarter of the 512 MB each has, the rest for its work). Times are this
// machine's, not Lambda's: compare runs, not platforms.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { synthesizeForTest } from '../lib/test-app';
import { figure, goalText, quick, recordResults } from './results';

const RUNS = quick ? 3 : 5;
const PEAK_GOAL_MIB = 128;

interface BundledFunction {
  description: string;
  dir: string;
  /** The function's variables that set up its process rather than its code. */
  processEnvironment: Record<string, string>;
}

const PROCESS_SETTING = /^(NODE_OPTIONS|MALLOC_\w+)$/;

interface LambdaResource {
  Type: string;
  Metadata?: Record<string, string>;
  Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } };
}

/** Every Loopcast function of the app (not CDK's own helpers), from the synthesized templates' asset metadata,
 * and the cloud assembly's folder (a temporary one) to delete afterwards. */
function bundledFunctions(): { functions: BundledFunction[]; assemblyDir: string } {
  const { app } = synthesizeForTest({}, { bundle: true });
  const assembly = app.synth();
  const functions = assembly.stacks.flatMap((stack) => {
    const template = JSON.parse(readFileSync(join(assembly.directory, stack.templateFile), 'utf8')) as { Resources: Record<string, LambdaResource> };
    return Object.values(template.Resources)
      .filter(
        (resource) =>
          resource.Type === 'AWS::Lambda::Function' &&
          typeof resource.Properties.Description === 'string' &&
          resource.Properties.Description.startsWith('Loopcast '),
      )
      .map((resource) => {
        const variables = Object.entries(resource.Properties.Environment?.Variables ?? {});
        return {
          description: resource.Properties.Description!.replace(/^Loopcast \w+: /, ''),
          dir: join(assembly.directory, resource.Metadata!['aws:asset:path']!),
          processEnvironment: Object.fromEntries(
            variables.filter((entry): entry is [string, string] => PROCESS_SETTING.test(entry[0]) && typeof entry[1] === 'string'),
          ),
        };
      });
  });
  return { functions, assemblyDir: assembly.directory };
}

const IMPORT_SCRIPT = `const started = performance.now();
await import(process.argv[1]);
const importMs = performance.now() - started;
setTimeout(() => {
  const peakKiB = Number(/VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]);
  process.stdout.write(JSON.stringify({ importMs, peakMiB: peakKiB / 1024 }), () => process.exit(0));
}, 500);`;

async function coldStart(fn: BundledFunction): Promise<{ importMs: number; peakMiB: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=commonjs', '-e', `(async () => { ${IMPORT_SCRIPT} })()`, join(fn.dir, 'index.mjs')],
    { env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', ...fn.processEnvironment }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as { importMs: number; peakMiB: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const synthStarted = performance.now();
const { functions, assemblyDir } = bundledFunctions();
console.log(`${functions.length} functions bundled as cdk deploy bundles them (${((performance.now() - synthStarted) / 1000).toFixed(0)} s)`);

const rows: { description: string; importMs: number; peakMiB: number }[] = [];
try {
  for (const fn of functions) {
    const runs = [];
    // One after the other: parallel imports would measure the two cores' contention instead.
    for (let run = 0; run < RUNS; run++) runs.push(await coldStart(fn));
    const row = { description: fn.description, importMs: median(runs.map((r) => r.importMs)), peakMiB: median(runs.map((r) => r.peakMiB)) };
    rows.push(row);
    console.log(`  ${row.description.padEnd(44)} import ${row.importMs.toFixed(0).padStart(4)} ms, peak RSS ${row.peakMiB.toFixed(1)} MiB`);
  }
} finally {
  rmSync(assemblyDir, { recursive: true, force: true });
}

const figures = {
  functions: figure(rows.length, 'functions'),
  importMedian: figure(Math.round(median(rows.map((r) => r.importMs))), 'ms'),
  importSlowest: figure(Math.round(Math.max(...rows.map((r) => r.importMs))), 'ms'),
  peakRssLargest: figure(Number(Math.max(...rows.map((r) => r.peakMiB)).toFixed(1)), 'MiB', { op: '<=', value: PEAK_GOAL_MIB }),
};
console.log(`\nimport: median ${figures.importMedian.value} ms, slowest ${figures.importSlowest.value} ms (median of ${RUNS} processes each)`);
console.log(`peak RSS after import, largest: ${figures.peakRssLargest.value} MiB ${goalText(figures.peakRssLargest)}`);
recordResults('cold-start', figures, {
  runsPerFunction: RUNS,
  perFunction: rows.map((r) => ({ ...r, importMs: Math.round(r.importMs), peakMiB: Number(r.peakMiB.toFixed(1)) })),
});

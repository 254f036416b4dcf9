// The stream task as one ES module, bundled by esbuild from stream-task/src/main.ts with its dependencies. The
// container image runs that file (stream-task/Dockerfile: `node stream-task/bundle.ts /out/main.mjs`, minified),
// and so do the local stack and the tests (`localStreamTaskBundle`: built once, again only when one of its sources
// changed). A task then starts in about 0.3 s; a TypeScript loader compiled the task's whole graph on every start
// (2-3 s on a busy machine), most of the time from "Start" to media at the destination (docs/stream-task.md).
// Plain TypeScript that Node runs as it is (type stripping): the image's build stage needs no loader either.
import { build } from 'esbuild';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..');
const entryPoint = join('stream-task', 'src', 'main.ts');

/** Where the local stack's build goes (git-ignored); a stream task's command line names it. */
export const LOCAL_STREAM_TASK_BUNDLE = join(repoRoot, '.build', 'stream-task', 'main.mjs');
/** The sources the local build was made from, relative to the repository root. */
const localInputsFile = join(dirname(LOCAL_STREAM_TASK_BUNDLE), 'inputs.json');

/** Bundles the stream task into `outfile`; returns the files it was made from, relative to the repository root. */
export async function bundleStreamTask(outfile: string, options: { minify: boolean }): Promise<string[]> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    minify: options.minify,
    // Some dependencies are CommonJS and require Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile,
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(result.metafile.inputs);
}

async function modifiedMs(path: string): Promise<number | undefined> {
  return (await stat(path).catch(() => undefined))?.mtimeMs;
}

/** Whether the local build is missing or older than any of its sources (or a source is gone). */
async function localBundleStale(): Promise<boolean> {
  const built = await modifiedMs(LOCAL_STREAM_TASK_BUNDLE);
  const inputs = await readFile(localInputsFile, 'utf8').then(
    (text) => JSON.parse(text) as string[],
    () => undefined,
  );
  if (built === undefined || !inputs) return true;
  for (const input of inputs) {
    const modified = await modifiedMs(join(repoRoot, input));
    if (modified === undefined || modified > built) return true;
  }
  return false;
}

let building: Promise<string> | undefined;

/** The local stream task's file, rebuilt first when a source changed. Several processes (test workers) may build at
 * once: each writes its own files and renames them into place, so a reader never sees half a bundle. */
export function localStreamTaskBundle(): Promise<string> {
  building ??= (async () => {
    if (await localBundleStale()) {
      await mkdir(dirname(LOCAL_STREAM_TASK_BUNDLE), { recursive: true });
      const unique = `${process.pid}-${Date.now()}`;
      const [bundle, inputs] = [`${LOCAL_STREAM_TASK_BUNDLE}.${unique}`, `${localInputsFile}.${unique}`];
      await writeFile(inputs, JSON.stringify(await bundleStreamTask(bundle, { minify: false })));
      await rename(bundle, LOCAL_STREAM_TASK_BUNDLE);
      await rename(inputs, localInputsFile);
    }
    return LOCAL_STREAM_TASK_BUNDLE;
  })().finally(() => {
    building = undefined;
  });
  return building;
}

// `node stream-task/bundle.ts <outfile>`: the container image's build.
if (import.meta.main) {
  const outfile = process.argv[2];
  if (!outfile) {
    console.error('usage: node stream-task/bundle.ts <outfile>');
    process.exit(2);
  }
  await bundleStreamTask(outfile, { minify: true });
}

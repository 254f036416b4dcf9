// The stream task as ES modules, bundled by esbuild from stream-task/src/main.ts with its dependencies: `main.mjs`,
// and in `chunks/` what it loads only when needed (the AWS SDK's S3 client: stream-task/src/inputs.ts). The
// container image runs those files (stream-task/Dockerfile: `node stream-task/bundle.ts /out`, minified), and so do
// the local stack and the tests (`localStreamTaskBundle`: built once, again only when one of its sources changed).
// A task then starts in about 0.3 s; a TypeScript loader compiled the task's whole graph on every start (2-3 s on a
// busy machine), most of the time from "Start" to media at the destination (docs/stream-task.md).
// Plain TypeScript that Node runs as it is (type stripping): the image's build stage needs no loader either.
import { build, type OutputFile } from 'esbuild';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

const repoRoot = join(import.meta.dirname, '..');
const entryPoint = join('stream-task', 'src', 'main.ts');
const LOCAL_OUT_DIR = join(repoRoot, '.build', 'stream-task');

/** Where the local stack's build goes (git-ignored); a stream task's command line names it. */
export const LOCAL_STREAM_TASK_BUNDLE = join(LOCAL_OUT_DIR, 'main.mjs');
/** The sources and outputs of the local build, relative to the repository root and to the build's folder. */
const localManifestFile = join(LOCAL_OUT_DIR, 'manifest.json');

interface Manifest {
  inputs: string[];
  outputs: string[];
}

/** Bundles the stream task for `outdir`; returns its files (not yet written) and the files it was made from,
 * relative to the repository root. */
async function bundle(outdir: string, options: { minify: boolean }): Promise<{ files: OutputFile[]; inputs: string[] }> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [entryPoint],
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    minify: options.minify,
    // Some dependencies are CommonJS and require Node's built-ins (in every file: each is a module of its own).
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outdir,
    entryNames: '[name]',
    // Named by content: a rebuild that leaves the S3 SDK as it was leaves its chunk's name, and a task still
    // running an older main.mjs finds its chunks.
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  return { files: result.outputFiles, inputs: Object.keys(result.metafile.inputs) };
}

/** The container image's build: the stream task's files written into `outdir`, minified. */
export async function bundleStreamTask(outdir: string): Promise<void> {
  const { files } = await bundle(outdir, { minify: true });
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.contents);
  }
}

async function modifiedMs(path: string): Promise<number | undefined> {
  return (await stat(path).catch(() => undefined))?.mtimeMs;
}

/** Whether the local build is missing, older than any of its sources, or lacks a file. */
async function localBundleStale(): Promise<boolean> {
  const built = await modifiedMs(LOCAL_STREAM_TASK_BUNDLE);
  const manifest = await readFile(localManifestFile, 'utf8').then(
    (text) => JSON.parse(text) as Manifest,
    () => undefined,
  );
  if (built === undefined || !manifest?.inputs || !manifest.outputs) return true;
  // Some 700 files, asked at once: the local runner asks before every task it starts.
  const [inputs, outputs] = await Promise.all([
    Promise.all(manifest.inputs.map((input) => modifiedMs(join(repoRoot, input)))),
    Promise.all(manifest.outputs.map((output) => modifiedMs(join(LOCAL_OUT_DIR, output)))),
  ]);
  return inputs.some((modified) => modified === undefined || modified > built) || outputs.includes(undefined);
}

let building: Promise<string> | undefined;

/** The local stream task's entry file, rebuilt first when a source changed. Several processes (test workers) may
 * build at once: each writes its own files and renames them into place (the chunks first, main.mjs last), so a
 * reader never sees half a file, nor a main.mjs without its chunks. */
export function localStreamTaskBundle(): Promise<string> {
  building ??= (async () => {
    if (await localBundleStale()) {
      const { files, inputs } = await bundle(LOCAL_OUT_DIR, { minify: false });
      const unique = `${process.pid}-${Date.now()}`;
      const isMain = (file: OutputFile) => file.path === LOCAL_STREAM_TASK_BUNDLE;
      const manifest: Manifest = { inputs, outputs: files.map((file) => relative(LOCAL_OUT_DIR, file.path)) };
      const writes = [
        ...[...files.filter((file) => !isMain(file)), ...files.filter(isMain)].map((file) => ({ path: file.path, contents: file.contents })),
        { path: localManifestFile, contents: JSON.stringify(manifest) },
      ];
      for (const { path, contents } of writes) {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(`${path}.${unique}`, contents);
        await rename(`${path}.${unique}`, path);
      }
    }
    return LOCAL_STREAM_TASK_BUNDLE;
  })().finally(() => {
    building = undefined;
  });
  return building;
}

// `node stream-task/bundle.ts <outdir>`: the container image's build.
if (import.meta.main) {
  const outdir = process.argv[2];
  if (!outdir) {
    console.error('usage: node stream-task/bundle.ts <outdir>');
    process.exit(2);
  }
  await bundleStreamTask(outdir);
}

// CDK's afterBundling hook of every HandlerFunction (plain JavaScript: it runs on the Node that synthesizes the app).
// Copies into the function's asset, as `node_modules/<name>` beside `index.mjs` where Lambda's Node resolves them,
// the packages the bundle left out and imports (`externalModules`, read from the bundle's metafile) with the
// packages they depend on, then removes the metafile: it describes the build and is not code.
//   node ship-packages.mjs <project root> <asset dir> <package>...
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [projectRoot, assetDir, ...packages] = process.argv.slice(2);
const metafile = join(assetDir, 'index.meta.json');
const { outputs } = JSON.parse(readFileSync(metafile, 'utf8'));
const imported = new Set(Object.values(outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path)));

const shipped = new Set();
/** Copies the package as npm installed it in the project (flat node_modules) and, first, what it depends on. */
function ship(name) {
  if (shipped.has(name)) return;
  shipped.add(name);
  const source = join(projectRoot, 'node_modules', name);
  const { dependencies = {} } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(dependencies)) ship(dependency);
  cpSync(source, join(assetDir, 'node_modules', name), { recursive: true });
}
for (const name of packages.filter((name) => imported.has(name))) ship(name);
rmSync(metafile);

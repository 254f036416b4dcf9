// The JavaScript an app page loads, gzip -9, read from the web build's route manifest: the client entry, the
// route modules of root > /app > the signed-in layout > the page with their static imports, and the page
// language's catalogue (loaded by the app root). Chunks a page loads later on its own (the uploader, the HLS
// player, Uppy's texts) are not counted. Run alone with `tsx bench/app-bundle.ts`; bench/web.ts prints it too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { webBuildDir } from '../local/paths';

interface ManifestEntry {
  module: string;
  imports?: string[];
}
interface RouteManifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry>;
}

const assetsDir = join(webBuildDir, 'assets');
const gzipBytes = (file: string) => gzipSync(readFileSync(join(webBuildDir, file)), { level: 9 }).length;

function routeManifest(): RouteManifest {
  const file = readdirSync(assetsDir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${assetsDir}: build the web app first`);
  const source = readFileSync(join(assetsDir, file), 'utf8');
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as RouteManifest;
}

/** The catalogue chunk of a language: Vite names it after its source file (`en.json` -> `en-<hash>.js`). */
function catalogueChunk(language: string): string {
  const file = readdirSync(assetsDir).find((name) => new RegExp(`^${language}-[\\w-]{8}\\.js$`).test(name));
  if (!file) throw new Error(`no catalogue chunk for ${language}`);
  return `/assets/${file}`;
}

export interface AppPageWeight {
  page: string;
  code: number;
  catalogue: number;
  files: number;
}

export function appPageWeights(pages = ['dashboard', 'streams', 'channels', 'videos', 'billing', 'account'], language = 'en'): AppPageWeight[] {
  const manifest = routeManifest();
  return pages.map((page) => {
    const entries = [manifest.entry, ...['root', `app-${language}`, `custom-${language}`, `${page}-${language}`].map((id) => manifest.routes[id])];
    const files = new Set<string>();
    for (const entry of entries) {
      if (!entry) throw new Error(`route missing from the manifest for ${page}`);
      for (const file of [entry.module, ...(entry.imports ?? [])]) files.add(file);
    }
    return { page, code: [...files].reduce((sum, file) => sum + gzipBytes(file), 0), catalogue: gzipBytes(catalogueChunk(language)), files: files.size };
  });
}

/** Every script of the build together (each chunk once), gzip -9. */
export const allScriptsBytes = () =>
  readdirSync(assetsDir)
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipBytes(`/assets/${name}`), 0);

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function printAppWeights(): void {
  console.log('\nJavaScript of app pages, gzip -9 (entry, routes and their imports, plus the English catalogue)');
  for (const weight of appPageWeights()) {
    console.log(
      `  /app/${weight.page.padEnd(10)} ${kB(weight.code + weight.catalogue).padStart(9)}  (${weight.files} files ${kB(weight.code)}, catalogue ${kB(weight.catalogue)})`,
    );
  }
  console.log(`  every script of the build together: ${kB(allScriptsBytes())}`);
}

if (import.meta.url === `file://${process.argv[1]}`) printAppWeights();

import type { Config } from '@react-router/dev/config';
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prerenderedPaths } from './src/app/site-map';

const clientDir = join(import.meta.dirname, 'build', 'client');

// Framework mode without a server: public pages are prerendered to real HTML at build time, the rest
// (/app/*) is client-rendered from the SPA fallback, as CloudFront serves them (lib/web-stack.ts).
export default {
  appDirectory: 'src',
  buildDirectory: 'build',
  ssr: false,
  prerender: prerenderedPaths,
  async buildEnd() {
    // The edge answers unknown paths with this copy of the SPA shell and status 404 (web/edge/viewer-request.js).
    await copyFile(join(clientDir, '__spa-fallback.html'), join(clientDir, '404.html'));
    // The deployed build's id, polled hourly by open pages to offer a reload (features/updates).
    const manifest = (await readdir(join(clientDir, 'assets'))).find((file) => /^manifest-[\w-]+\.js$/.test(file));
    if (!manifest) throw new Error('React Router wrote no manifest-<version>.js');
    await writeFile(join(clientDir, 'build-id.json'), `${JSON.stringify({ version: manifest.slice('manifest-'.length, -'.js'.length) })}\n`);
  },
} satisfies Config;

// `npm run bench:web`: the public site's quality bars, measured on the prerendered landing page served by a local
// stack (the same static serving and CloudFront Function rules as production); `npm run bench:web -- /ru/pricing /ua`
// measures those pages instead. Lighthouse with its default mobile
// preset (simulated slow 4G, 4x CPU slowdown) in Debian's Chromium, three runs, the median of each category; then
// the JavaScript a public page ships, gzip-compressed. Figures go to docs/web.md by hand.
import { figure, quick, recordResults, type Figure } from './results';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { webBuildDir } from '../local/paths';
import { printAppWeights } from './app-bundle';
import { freePort } from '../local/ports';
import { startLocalStack } from '../local/stack';

const RUNS = quick ? 1 : 3;
const pages = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
if (!pages.length) pages.push('/');
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const bars: Record<(typeof categories)[number], number> = { performance: 95, accessibility: 95, 'best-practices': 95, seo: 95 };
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Gzip bytes of every script a page loads: external files (read from the build) and inline scripts. */
async function scriptBytes(url: string): Promise<{ external: number; inline: number; files: number }> {
  const html = await (await fetch(url)).text();
  const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  const files = [...new Set([...sources, ...preloads].filter((src) => src.startsWith('/')))];
  const inlines = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  const gzip = (body: string | Buffer) => gzipSync(body, { level: 9 }).length;
  return {
    external: files.reduce((sum, file) => sum + gzip(readFileSync(join(webBuildDir, file))), 0),
    inline: inlines.reduce((sum, script) => sum + (script.trim() ? gzip(script) : 0), 0),
    files: files.length,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'loopcast-bench-web-'));
const stack = await startLocalStack({
  dataDir,
  persistent: false,
  namePrefix: 'bench-web-',
  ports: { http: 0, realtime: 0, dynamodb: await freePort(), s3: 0, rtmp: 0, hls: 0 },
  rtmp: false,
  webDir: webBuildDir,
});
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });
let failed = false;
const figures: Record<string, Figure> = {};
try {
  for (const page of pages) {
    const url = `${stack.urls.web}${page}`;
    const scores: Record<string, number[]> = Object.fromEntries(categories.map((c) => [c, []]));
    const metrics: Record<string, number[]> = { FCP: [], LCP: [], TBT: [], CLS: [], SI: [] };
    for (let run = 1; run <= RUNS; run++) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] });
      if (!result) throw new Error('Lighthouse returned no result');
      const { categories: measured, audits } = result.lhr;
      for (const category of categories) scores[category]!.push(Math.round((measured[category]?.score ?? 0) * 100));
      metrics.FCP!.push(audits['first-contentful-paint']?.numericValue ?? NaN);
      metrics.LCP!.push(audits['largest-contentful-paint']?.numericValue ?? NaN);
      metrics.TBT!.push(audits['total-blocking-time']?.numericValue ?? NaN);
      metrics.CLS!.push(audits['cumulative-layout-shift']?.numericValue ?? NaN);
      metrics.SI!.push(audits['speed-index']?.numericValue ?? NaN);
      const failing = Object.values(audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      console.log(
        `run ${run}: ${categories.map((c) => `${c} ${scores[c]!.at(-1)}`).join(', ')}${failing.length ? ` (failing audits: ${failing.join(', ')})` : ''}`,
      );
    }
    console.log(`\nLighthouse, mobile preset, median of ${RUNS} runs, ${url}`);
    for (const category of categories) {
      const score = median(scores[category]!);
      const ok = score >= bars[category];
      failed ||= !ok;
      figures[`${page} ${category}`] = figure(score, 'score', { op: '>=', value: bars[category] });
      console.log(`  ${category.padEnd(15)} ${String(score).padStart(3)}  (bar ${bars[category]}) ${ok ? 'ok' : 'BELOW THE BAR'}`);
    }
    console.log(
      `  metrics         FCP ${median(metrics.FCP!).toFixed(0)} ms, LCP ${median(metrics.LCP!).toFixed(0)} ms, TBT ${median(metrics.TBT!).toFixed(0)} ms, CLS ${median(metrics.CLS!).toFixed(3)}, Speed Index ${median(metrics.SI!).toFixed(0)} ms`,
    );
    for (const [name, values] of Object.entries(metrics)) {
      figures[`${page} ${name}`] = figure(Number(median(values).toFixed(name === 'CLS' ? 3 : 0)), name === 'CLS' ? '' : 'ms');
    }
  }

  console.log('\nJavaScript shipped, gzip -9 (bar for public pages: 120 kB)');
  for (const path of ['/', '/hi', '/pricing', '/terms', '/app/auth/login']) {
    const bytes = await scriptBytes(`${stack.urls.web}${path}`);
    const total = bytes.external + bytes.inline;
    const publicPage = !path.startsWith('/app');
    if (publicPage) failed ||= total > 120_000;
    figures[`script ${path}`] = figure(Number((total / 1000).toFixed(1)), 'kB', publicPage ? { op: '<=', value: 120 } : undefined);
    console.log(
      `  ${path.padEnd(16)} ${kB(total).padStart(9)}  (${bytes.files} files ${kB(bytes.external)}, inline ${kB(bytes.inline)})${publicPage ? '' : '  app page, for reference'}`,
    );
  }
  printAppWeights();
  recordResults('web', figures, { runs: RUNS });
} finally {
  await chrome.kill();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

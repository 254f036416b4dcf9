// Debian's Chromium driven by playwright-core (no browser download), headless, with the flags this machine's
// closed network needs; the browser and local stack of an e2e file, signed-in contexts and page errors.
// Screenshots go to test-results/screenshots/ (kept as CI artifacts), or to LOOPCAST_SCREENSHOT_DIR when set.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { repoRoot } from '../../local/paths';
import type { LocalStack } from '../../local/stack';
import { CHROMIUM } from './components';
import { startTestStack, type TestStackOptions } from './stack';

export const screenshotDir = process.env.LOOPCAST_SCREENSHOT_DIR || join(repoRoot, 'test-results', 'screenshots');

/**
 * Chromium features the suite turns off, besides those Playwright turns off. Headless Chromium opens a window per
 * context, and each window preloads its omnibox's WebUI popup in a renderer of its own: ten contexts cost 33.6 CPU-s
 * with it and 9.7 without, and nearly every test opens one (Chromium was a third of the suite's CPU).
 */
const suiteDisabledFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** Playwright's own `--disable-features` list. Chromium keeps only the last `--disable-features` switch, so the
 * suite's must repeat Playwright's; it is read from the installed playwright-core, so an upgrade changes both. */
function playwrightDisabledFeatures(): string[] {
  const bundle = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib', 'coreBundle.js');
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(readFileSync(bundle, 'utf8'))?.[1];
  const features = [...(list ?? '').matchAll(/"(\w+)"/g)].map((match) => match[1]!);
  if (features.length === 0) throw new Error(`Playwright's disabled Chromium features were not found in ${bundle}: update test/helpers/browser.ts`);
  return features;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      `--disable-features=${[...playwrightDisabledFeatures(), ...suiteDisabledFeatures].join(',')}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** An e2e file's Chromium, with contexts that close after the test that opened them and that prefer reduced motion
 * unless a test asks otherwise. */
export interface BrowserTests {
  readonly browser: Browser;
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A context signed in to `stack` as `token` (the auth_token cookie, as the login page sets it), under the local
   * server's real Content-Security-Policy. `realtime: false` answers the realtime ticket (GET /api/ws) with 503, so
   * the pages must poll.
   */
  signedInContext(stack: LocalStack, token: string, options?: BrowserContextOptions & { realtime?: boolean }): Promise<BrowserContext>;
}

/** How long a context or the browser gets to close after the tests that used them (and a failed test's page to be
 * reported). Chromium's close very rarely never answers (seen once in this suite, on a loaded machine; Playwright
 * issue #5273 and others); the test has asserted everything by then, and Playwright kills the browser it launched
 * when the worker exits. */
const FINISH_WITHIN_MS = 10_000;

async function finishWithin(what: string, work: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), FINISH_WITHIN_MS)));
  try {
    if ((await Promise.race([work(), hung])) === 'hung') console.warn(`${what} did not finish within ${FINISH_WITHIN_MS} ms; moving on`);
  } finally {
    clearTimeout(timer);
  }
}

/** What the pages showed when a test failed (test/helpers/e2e-environment.cjs tells): each one's address and visible
 * text in the test's output, which is all a CI log keeps, and a screenshot beside the others. */
async function reportPages(pages: Page[]): Promise<void> {
  const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w-]+/g, '-').slice(0, 80);
  for (const [index, page] of pages.entries()) {
    await finishWithin(`reporting a failed test's page`, async () => {
      const text = (await page.locator('body').innerText({ timeout: 5000 })).replace(/\n{2,}/g, '\n').slice(0, 3000);
      const path = await screenshot(page, `failed-${name}-${index}`);
      console.log(`[e2e failure] page ${index} at ${page.url()} (${path}) showed:\n${text}`);
    }).catch((error: unknown) => console.log(`[e2e failure] page ${index} at ${page.url()} could not be read: ${String(error)}`));
  }
}

/**
 * Chromium for an e2e file: launched before its tests while `start` starts what they run against (stacks, fakes),
 * closed after them, then `stop`. Contexts from `newContext` and `signedInContext` close after each test.
 */
export function browserTests(hooks: { start?: () => Promise<unknown>; stop?: () => Promise<unknown>; timeoutMs?: number }): BrowserTests {
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  beforeAll(async () => {
    await Promise.all([launchBrowser().then((launched) => (browser = launched)), hooks.start?.()]);
  }, hooks.timeoutMs);
  afterEach(async () => {
    const open = contexts;
    contexts = [];
    if ((globalThis as { __e2eTestFailed?: boolean }).__e2eTestFailed) await reportPages(open.flatMap((context) => context.pages()));
    await Promise.all(open.map((context) => finishWithin('closing a browser context', () => context.close())));
  });
  afterAll(async () => {
    if (browser) await finishWithin('closing Chromium', () => browser!.close());
    await hooks.stop?.();
  });
  const tests: BrowserTests = {
    get browser() {
      if (!browser) throw new Error('the browser is launched in beforeAll');
      return browser;
    },
    async newContext(options) {
      // The app honours prefers-reduced-motion (web/src/styles/app.css); without it, every spinner and pulsing badge
      // repaints 60 times a second in software (one spinner: 12 % of a core), for as long as a test's page is open.
      const context = await tests.browser.newContext({ reducedMotion: 'reduce', ...options });
      contexts.push(context);
      return context;
    },
    async signedInContext(stack, token, { realtime = true, ...options } = {}) {
      const context = await tests.newContext(options);
      await context.addCookies([{ name: 'auth_token', value: token, url: stack.urls.web, sameSite: 'Lax' }]);
      if (!realtime)
        await context.route(`${stack.urls.api}/ws`, (route) =>
          route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'service unavailable' }) }),
        );
      return context;
    },
  };
  return tests;
}

/** `browserTests` against one local stack (test/helpers/stack.ts) that serves the built web app. */
export function browserTestsOnStack(options: TestStackOptions = {}, timeoutMs?: number): BrowserTests & { readonly stack: LocalStack } {
  let stack: LocalStack | undefined;
  const tests = browserTests({
    start: async () => {
      stack = await startTestStack({ web: true, ...options });
    },
    stop: async () => stack?.stop(),
    timeoutMs,
  });
  return {
    get stack() {
      if (!stack) throw new Error('the stack is started in beforeAll');
      return stack;
    },
    get browser() {
      return tests.browser;
    },
    newContext: tests.newContext,
    signedInContext: tests.signedInContext,
  };
}

/**
 * Collects the page's uncaught errors into `into` (answered) and, with `console`, its console errors; 'except failed
 * loads' leaves out the browser's "Failed to load resource" lines, for tests that refuse requests on purpose.
 */
export function recordErrors(page: Page, options: { console?: boolean | 'except failed loads' } = {}, into: string[] = []): string[] {
  if (options.console) {
    page.on('console', (message) => {
      if (message.type() === 'error' && !(options.console === 'except failed loads' && message.text().startsWith('Failed to load resource')))
        into.push(message.text());
    });
  }
  page.on('pageerror', (error) => into.push(error.message));
  return into;
}

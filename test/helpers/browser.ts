// Debian's Chromium driven by playwright-core (no browser download), headless, with the flags this machine's
// closed network needs; the browser and local stack of an e2e file, signed-in contexts and page errors.
// Screenshots go to test-results/screenshots/ (kept as CI artifacts), or to LOOPCAST_SCREENSHOT_DIR when set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { repoRoot } from '../../local/paths';
import type { LocalStack } from '../../local/stack';
import { CHROMIUM } from './components';
import { startTestStack, type TestStackOptions } from './stack';

export const screenshotDir = process.env.LOOPCAST_SCREENSHOT_DIR || join(repoRoot, 'test-results', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
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

/** An e2e file's Chromium, with contexts that close after the test that opened them. */
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

/** How long a context or the browser gets to close after the tests that used them. Chromium's close very rarely
 * never answers (seen once in this suite, on a loaded machine; Playwright issue #5273 and others); the test has
 * asserted everything by then, and Playwright kills the browser it launched when the worker exits. */
const CLOSE_WITHIN_MS = 10_000;

async function closeWithin(what: string, close: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), CLOSE_WITHIN_MS)));
  try {
    if ((await Promise.race([close(), hung])) === 'hung') console.warn(`${what} did not close within ${CLOSE_WITHIN_MS} ms; moving on`);
  } finally {
    clearTimeout(timer);
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
    await Promise.all(open.map((context) => closeWithin('a browser context', () => context.close())));
  });
  afterAll(async () => {
    if (browser) await closeWithin('Chromium', () => browser!.close());
    await hooks.stop?.();
  });
  const tests: BrowserTests = {
    get browser() {
      if (!browser) throw new Error('the browser is launched in beforeAll');
      return browser;
    },
    async newContext(options) {
      const context = await tests.browser.newContext(options);
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

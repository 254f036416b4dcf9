// Redirects, cookies, 301s, 404s, the consent banner, the error screen, chunk errors and the route guard, in
// Chromium and over plain HTTP against the local stack, which runs the CloudFront Function's own file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { legalPages } from '../../web/src/app/site-map';
import { languageOfPath, languages, type LanguageCode } from '../../web/src/i18n/languages';
import { signedInUser } from '../helpers/accounts';
import { browserTestsOnStack, screenshot } from '../helpers/browser';

type Catalogue = {
  landing: { headline: string };
  pricing: { title: string };
  cookie: { accept: string };
  notFound: { title: string };
  auth: { login: { title: string } };
  app: { navLabel: string; pages: { streams: { title: string }; videos: { title: string } } };
};
const catalogue = (code: LanguageCode) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Catalogue;

const e2e = browserTestsOnStack();

async function newPage(locale = 'en-US') {
  const context = await e2e.newContext({ locale });
  return { context, page: await context.newPage() };
}
/** A page of a new signed-in user. */
async function signedInPage() {
  const context = await e2e.signedInContext(e2e.stack, (await signedInUser(e2e.stack)).token, { locale: 'en-US' });
  return context.newPage();
}
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${e2e.stack.urls.web}${path}`, { redirect: 'manual', headers });

describe('language', () => {
  test('a first visit goes to the browser language and keeps the choice in i18n_redirected', async () => {
    const { context, page } = await newPage('ru-RU');
    await page.goto(e2e.stack.urls.web);
    expect(new URL(page.url()).pathname).toBe('/ru');
    await page.getByRole('heading', { level: 1, name: catalogue('ru').landing.headline, exact: true }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
    expect(cookie).toMatchObject({ value: 'ru', path: '/', sameSite: 'Lax' });
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
  }, 30_000);

  test('Ukrainian browsers go to /ua; English and unknown languages stay unprefixed', async () => {
    expect((await get('/pricing', { 'accept-language': 'uk-UA,uk;q=0.9' })).headers.get('location')).toBe('/ua/pricing');
    expect((await get('/', { 'accept-language': 'en-GB' })).status).toBe(200);
    expect((await get('/', { 'accept-language': 'ja-JP' })).status).toBe(200);
  });

  test('the switcher changes the language and the cookie, and the choice holds on the next visit', async () => {
    const { context, page } = await newPage('hi-IN');
    await page.goto(`${e2e.stack.urls.web}/pricing`);
    expect(new URL(page.url()).pathname).toBe('/hi/pricing');
    await page.locator('.site-header select').selectOption('es');
    await page.waitForURL('**/es/pricing');
    await page.getByRole('heading', { level: 1, name: catalogue('es').pricing.title, exact: true }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('es');
    await page.goto(e2e.stack.urls.web);
    expect(new URL(page.url()).pathname).toBe('/es');
    await page.locator('.site-header select').selectOption('en');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${e2e.stack.urls.web}/pricing`);
    expect(new URL(page.url()).pathname).toBe('/pricing'); // English chosen, over the browser's Hindi
  }, 30_000);
});

describe('addresses', () => {
  test.each(languages.filter((l) => l.prefix).flatMap((l) => legalPages.map((page) => [`${l.prefix}${page}`, page])))(
    '%s answers 301 to %s',
    async (path, page) => {
      const response = await get(path);
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe(page);
    },
  );

  test('the 301 keeps the query string', async () => {
    expect((await get('/ua/refund-policy?from=mail')).headers.get('location')).toBe('/refund-policy?from=mail');
  });

  test.each(['/nowhere', '/es/nowhere', '/pricing/extra', '/en/terms'])(
    'unknown %s answers 404 with the not-found page naming it',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const { page } = await newPage();
      const visit = await page.goto(`${e2e.stack.urls.web}${path}`);
      expect(visit?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: catalogue(languageOfPath(path).code).notFound.title, exact: true }).waitFor();
      await expect(page.locator('main').textContent()).resolves.toContain(path);
    },
    30_000,
  );

  test('the not-found page speaks the language of its prefix', async () => {
    const { page } = await newPage();
    await page.goto(`${e2e.stack.urls.web}/hi/nowhere`);
    await page.getByRole('heading', { level: 1, name: catalogue('hi').notFound.title, exact: true }).waitFor();
  }, 30_000);

  test('the API keeps its own error answers (no site-wide error page)', async () => {
    const response = await get('/api/no-such-route');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'route not found' });
  });

  test('pages are served with the security headers and no-cache; hashed assets cache for a year', async () => {
    const page = await get('/');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await (await get('/app/auth/login')).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect((await get(asset!)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('cookie consent', () => {
  test('the banner shows until Accept, which is remembered', async () => {
    const { page } = await newPage();
    await page.goto(e2e.stack.urls.web);
    const banner = page.locator('#cookie-banner');
    await expect(banner.isVisible()).resolves.toBe(true);
    await banner.getByRole('button', { name: catalogue('en').cookie.accept }).click();
    await expect(banner.isVisible()).resolves.toBe(false);
    await page.goto(`${e2e.stack.urls.web}/pricing`);
    await expect(page.locator('#cookie-banner').isVisible()).resolves.toBe(false);
  }, 30_000);
});

describe('app shell', () => {
  test('anonymous visitors are sent to the login page, in their language', async () => {
    const { page } = await newPage();
    for (const [from, to] of [
      ['/app', '/app/auth/login'],
      ['/app/auth', '/app/auth/login'],
      ['/app/streams', '/app/auth/login'],
      ['/es/app/videos', '/es/app/auth/login'],
    ]) {
      await page.goto(`${e2e.stack.urls.web}${from}`);
      await page.waitForURL((url) => url.pathname === to);
    }
    await page.getByRole('heading', { level: 1, name: catalogue('es').auth.login.title, exact: true }).waitFor();
  }, 30_000);

  test('signed-in users opening login or register go to their streams; app pages show their titles', async () => {
    const page = await signedInPage();
    await page.goto(`${e2e.stack.urls.web}/ru/app/auth/register`);
    await page.waitForURL((url) => url.pathname === '/ru/app/streams');
    await page.getByRole('heading', { level: 1, name: catalogue('ru').app.pages.streams.title, exact: true }).waitFor();
    // The app's own menu: the Streams page may also offer "Upload a video" (Загрузить видео).
    await page
      .getByRole('navigation', { name: catalogue('ru').app.navLabel })
      .getByRole('link', { name: catalogue('ru').app.pages.videos.title, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === '/ru/app/videos');
    await page.getByRole('heading', { level: 1, name: catalogue('ru').app.pages.videos.title, exact: true }).waitFor();
    await screenshot(page, 'public-app-shell-ru');
  }, 30_000);
});

describe('updates and analytics', () => {
  test('an open app page checks the build id hourly and offers a reload when a new build is deployed', async () => {
    const page = await signedInPage();
    await page.clock.install();
    await page.goto(`${e2e.stack.urls.web}/app/dashboard`);
    await page.locator('h1').waitFor();
    await page.route('**/build-id.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ version: 'a-newer-build' }) }));
    await page.clock.fastForward('59:00');
    await expect(page.locator('.toast').count()).resolves.toBe(0);
    await page.clock.fastForward('01:00');
    const toast = page.locator('.toast');
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toContain('A new version of Loopcast is available.');
    await expect(toast.getByRole('button', { name: 'Reload' }).isVisible()).resolves.toBe(true);
  }, 30_000);

  test('without a configured tag manager id nothing is loaded or sent', async () => {
    const { page } = await newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(e2e.stack.urls.web);
    await page.goto(`${e2e.stack.urls.web}/app/auth/login`);
    await page.locator('h1').waitFor();
    expect(requests.filter((url) => url.includes('googletagmanager'))).toEqual([]);
    await expect(page.evaluate(() => (window as { dataLayer?: unknown }).dataLayer)).resolves.toBeUndefined();
  }, 30_000);
});

describe('failures', () => {
  test('a fatal error shows the error screen, whose button goes home', async () => {
    const page = await signedInPage();
    // The videos page's code is replaced by a component that throws while rendering: an unhandled error.
    await page.route(/\/assets\/videos-[\w-]+\.js$/, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'export default function Broken() { throw new Error("boom"); }' }),
    );
    await page.goto(`${e2e.stack.urls.web}/app/streams`);
    await page
      .getByRole('navigation', { name: catalogue('en').app.navLabel })
      .getByRole('link', { name: catalogue('en').app.pages.videos.title, exact: true })
      .click();
    await page.getByText('Get lost? How? Why? ahhhh.....').waitFor();
    await page.getByRole('heading', { level: 1, name: '404', exact: true }).waitFor();
    const background = await page.locator('.error-screen').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(background).toBe('rgb(7, 7, 26)');
    await screenshot(page, 'public-error-screen');
    await page.getByRole('link', { name: 'Take me Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  }, 30_000);

  test('when the app cannot start at all, the page reloads once, then shows the error screen', async () => {
    const { page } = await newPage();
    await page.route(/\/assets\/root-[\w-]+\.js$/, (route) => route.abort());
    let documentRequests = 0; // the first document fails before its load event, so count requests
    page.on('request', (request) => void (request.isNavigationRequest() && documentRequests++));
    await page.goto(`${e2e.stack.urls.web}/app/auth/login`);
    await page.getByText('Get lost? How? Why? ahhhh.....').waitFor();
    await page.waitForTimeout(1500); // room for a further reload, which must not come
    expect(documentRequests).toBe(2);
    await expect(page.getByRole('link', { name: 'Take me Home' }).isVisible()).resolves.toBe(true);
  }, 30_000);

  test('a chunk that fails to load reloads the page once, not again within 10 s', async () => {
    const page = await signedInPage();
    // The English catalogue's chunk, which the app loads on start, cannot be fetched (as after a deploy).
    await page.route(/\/assets\/en-[\w-]+\.js$/, (route) => route.abort());
    let loads = 0;
    page.on('load', () => void loads++);
    await page.goto(`${e2e.stack.urls.web}/app/streams`);
    await page.getByText('Get lost? How? Why? ahhhh.....').waitFor();
    await page.waitForTimeout(1500); // room for a further reload, which must not come
    expect(loads).toBe(2); // the first load, then one reload
    expect(new URL(page.url()).pathname).toBe('/app/streams');
  }, 30_000);
});

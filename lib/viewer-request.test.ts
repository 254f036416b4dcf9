// Runs the CloudFront Function's own file, as CloudFront would: a global `handler(event)` for both events.
import { readFileSync } from 'node:fs';
import { legalPages, translatedPages } from '../web/src/app/site-map';
import { languages } from '../web/src/i18n/languages';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from '../web/src/i18n/locale-cookie';
import { apiViewerRequestFunctionFile, viewerRequestFunctionFile } from './web-stack';

interface Value {
  value: string;
  attributes?: string;
  multiValue?: Value[];
}
interface Request {
  method: string;
  uri: string;
  querystring: Record<string, Value>;
  headers: Record<string, Value>;
  cookies: Record<string, Value>;
}
interface Response {
  statusCode: number;
  statusDescription?: string;
  headers?: Record<string, Value>;
  cookies?: Record<string, Value>;
}
type Event = { context: { eventType: string }; request: Request; response?: Response };

const source = readFileSync(viewerRequestFunctionFile, 'utf8');
const handler = new Function(`${source}; return handler;`)() as (event: Event) => Request | Response;

function viewerRequest(uri: string, { cookie, acceptLanguage, query = {} }: { cookie?: string; acceptLanguage?: string; query?: Record<string, Value> } = {}) {
  return handler({
    context: { eventType: 'viewer-request' },
    request: {
      method: 'GET',
      uri,
      querystring: query,
      headers: acceptLanguage ? { 'accept-language': { value: acceptLanguage } } : {},
      cookies: cookie ? { [LOCALE_COOKIE]: { value: cookie } } : {},
    },
  });
}
const rewrite = (uri: string, options?: Parameters<typeof viewerRequest>[1]) => {
  const result = viewerRequest(uri, options);
  if ('statusCode' in result) throw new Error(`${uri} answered ${result.statusCode}`);
  return result.uri;
};
const answer = (uri: string, options?: Parameters<typeof viewerRequest>[1]) => {
  const result = viewerRequest(uri, options);
  if (!('statusCode' in result)) throw new Error(`${uri} was rewritten to ${result.uri}`);
  return { status: result.statusCode, location: result.headers?.location?.value, cookies: result.cookies };
};
const responseStatus = (uri: string) =>
  (
    handler({
      context: { eventType: 'viewer-response' },
      request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
      response: { statusCode: 200 },
    }) as Response
  ).statusCode;

const prefixes = languages.filter((l) => l.prefix).map((l) => l.prefix);

describe('CloudFront function', () => {
  test('its page lists are the site map', () => {
    const list = (name: string) => JSON.parse(source.match(new RegExp(`var ${name} = (\\[[^\\]]*\\]);`))![1]!.replaceAll("'", '"')) as string[];
    expect(list('TRANSLATED_PAGES')).toEqual([...translatedPages]);
    expect(list('LEGAL_PAGES')).toEqual([...legalPages]);
    expect(list('LANGUAGE_PREFIXES')).toEqual(prefixes.map((p) => p.slice(1)));
    expect(source).toContain(`var LOCALE_COOKIE = '${LOCALE_COOKIE}';`);
    expect(source).toContain(`Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax`);
  });

  test.each(prefixes.flatMap((prefix) => legalPages.map((page) => [`${prefix}${page}`, page])))('%s answers 301 to %s', (uri, page) => {
    expect(answer(uri)).toEqual({ status: 301, location: page, cookies: undefined });
  });

  test('the 301 keeps the query string', () => {
    expect(answer('/ru/offer', { query: { ref: { value: 'mail' }, tag: { value: 'a', multiValue: [{ value: 'a' }, { value: 'b c' }] } } }).location).toBe(
      '/offer?ref=mail&tag=a&tag=b%20c',
    );
  });

  test('a trailing slash answers 301 to the path without it', () => {
    expect(answer('/pricing/')).toMatchObject({ status: 301, location: '/pricing' });
    expect(answer('/es/')).toMatchObject({ status: 301, location: '/es' });
  });

  // Security audit M2: `//evil.example/` answered `301 Location: //evil.example`, which browsers follow off-site (as
  // they do `/\evil.example` and, with the tab removed, `/<TAB>/evil.example`).
  test.each([
    '//evil.example/',
    '//evil.example',
    '///evil.example/',
    '/\\evil.example/',
    '/\t/evil.example/',
    '/\n//evil.example/',
    '/es//evil.example/',
    '/app//evil.example',
    '/pricing\u0000/',
  ])('%j is no page: the not-found page with status 404, never a redirect', (uri) => {
    expect(rewrite(uri)).toBe('/404.html');
    expect(responseStatus(uri)).toBe(404);
  });

  test('every redirect stays on this site: its location starts with one slash and no backslash', () => {
    const uris = ['/pricing/', '/es/', '/ru/offer', '/a/b/c/', '/x//', '/%2Fevil.example/', '/%5Cevil.example/'];
    for (const uri of uris) {
      const result = viewerRequest(uri);
      if ('statusCode' in result) expect(result.headers?.location?.value).toMatch(/^\/(?![\/\\])/);
    }
  });

  test.each([
    ['/', '/index.html'],
    ['/pricing', '/pricing/index.html'],
    ['/soon', '/soon/index.html'],
    ['/terms', '/terms/index.html'],
    ['/refund-policy', '/refund-policy/index.html'],
    ['/es', '/es/index.html'],
    ['/hi/pricing', '/hi/pricing/index.html'],
    ['/ua/soon', '/ua/soon/index.html'],
    ['/assets/root-abc123.js', '/assets/root-abc123.js'],
    ['/es/pricing.data', '/es/pricing.data'],
    ['/favicon.svg', '/favicon.svg'],
    ['/build-id.json', '/build-id.json'],
  ])('%s is served from %s', (uri, file) => {
    expect(rewrite(uri)).toBe(file);
  });

  test.each(['/app', '/app/dashboard', '/app/auth/login', '/app/streams/abc', '/es/app', '/hi/app/videos', '/ua/app/auth/register'])(
    '%s is the client-rendered SPA shell',
    (uri) => {
      expect(rewrite(uri)).toBe('/__spa-fallback.html');
    },
  );

  test.each(['/nowhere', '/es/nowhere', '/pricing/extra', '/ru/terms/extra', '/en', '/en/pricing', '/xx/app/streams', '/apps'])(
    '%s is unknown: the not-found page with status 404',
    (uri) => {
      expect(rewrite(uri)).toBe('/404.html');
      expect(responseStatus(uri)).toBe(404);
      expect(responseStatus('/404.html')).toBe(404);
    },
  );

  test.each(['/', '/pricing', '/es', '/terms', '/app/streams', '/index.html', '/__spa-fallback.html', '/assets/a.js'])('%s keeps its status', (uri) => {
    expect(responseStatus(uri)).toBe(200);
  });

  describe('language of a first visit', () => {
    test.each([
      ['ru-RU,ru;q=0.9,en-US;q=0.8', '/ru'],
      ['uk-UA,uk;q=0.9', '/ua'],
      ['hi-IN', '/hi'],
      ['es-MX,es;q=0.9', '/es'],
      ['fr-FR,fr;q=1,de;q=0.9,es;q=0.8', '/es'],
      ['en;q=0.5,ru;q=0.8', '/ru'],
    ])('Accept-Language %s redirects / to %s and saves the choice', (acceptLanguage, target) => {
      const { status, location, cookies } = answer('/', { acceptLanguage });
      expect(status).toBe(302);
      expect(location).toBe(target);
      expect(cookies?.[LOCALE_COOKIE]).toEqual({ value: target.slice(1), attributes: `Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax` });
    });

    test('other translated pages follow too, with their query', () => {
      expect(answer('/pricing', { acceptLanguage: 'hi', query: { plan: { value: 'pro' } } }).location).toBe('/hi/pricing?plan=pro');
    });

    test.each([['en-US,en;q=0.9'], ['fr-FR,de;q=0.5'], ['ru;q=0'], ['']])('Accept-Language "%s" stays in English', (acceptLanguage) => {
      expect(rewrite('/', { acceptLanguage })).toBe('/index.html');
    });

    test('the saved choice wins over the browser and sets no new cookie', () => {
      expect(answer('/', { cookie: 'ua', acceptLanguage: 'ru' })).toEqual({ status: 302, location: '/ua', cookies: undefined });
      expect(rewrite('/pricing', { cookie: 'en', acceptLanguage: 'ru' })).toBe('/pricing/index.html');
    });

    test('a bad cookie value is ignored', () => {
      expect(answer('/', { cookie: '../../x', acceptLanguage: 'es' }).location).toBe('/es');
    });

    test('prefixed pages, legal pages and the app are never redirected by language', () => {
      expect(rewrite('/es/pricing', { acceptLanguage: 'ru', cookie: 'hi' })).toBe('/es/pricing/index.html');
      expect(rewrite('/terms', { acceptLanguage: 'ru' })).toBe('/terms/index.html');
      expect(rewrite('/app/auth/login', { acceptLanguage: 'ru' })).toBe('/__spa-fallback.html');
    });
  });
});

describe('CloudFront API viewer-request function', () => {
  const apiHandler = new Function(`${readFileSync(apiViewerRequestFunctionFile, 'utf8')}; return handler;`)() as (event: unknown) => {
    headers: Record<string, { value: string }>;
  };

  test("sets x-viewer-address to the viewer's IP, overwriting what the client sent", () => {
    const request = apiHandler({ viewer: { ip: '203.0.113.7' }, request: { uri: '/api/login', headers: { 'x-viewer-address': { value: '1.2.3.4' } } } });
    expect(request.headers['x-viewer-address']).toEqual({ value: '203.0.113.7' });
  });
});

// The local site runs the CloudFront function's very file (web/edge/viewer-request.js) after decoding the path.
// Security audit M2: `/%2Fevil.example/` answered `301 Location: //evil.example`, `/%5Cevil.example/` pointed to
// `/\evil.example` and `/%09/evil.example/` to `/<TAB>/evil.example`: browsers follow all three off-site.
import { startTestStack } from '../test/helpers/stack';
import type { LocalStack } from './stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ web: true });
});
afterAll(() => stack.stop());

test.each(['/%2Fevil.example/', '/%2F%2Fevil.example/', '/%5Cevil.example/', '/%09/evil.example/', '/%0A/evil.example/', '/es/%2Fevil.example/'])(
  '%s is the not-found page with status 404, never a redirect',
  async (path) => {
    const response = await fetch(`${stack.urls.web}${path}`, { redirect: 'manual' });
    expect({ status: response.status, location: response.headers.get('location') }).toEqual({ status: 404, location: null });
  },
);

test('a trailing slash still redirects, on this site', async () => {
  const response = await fetch(`${stack.urls.web}/pricing/`, { redirect: 'manual' });
  expect({ status: response.status, location: response.headers.get('location') }).toEqual({ status: 301, location: '/pricing' });
});

// Re-check of security audit L1: a path outside Latin-1 with a trailing slash made a Location header Node refuses (500).
test('a trailing slash after any script redirects to the same path, percent-encoded', async () => {
  for (const [path, location] of [
    ['/%E2%82%AC/', '/%E2%82%AC'],
    ['/%D0%BF%D1%80%D0%B8%D0%B2%D1%96%D1%82/?a=%C3%B1', '/%D0%BF%D1%80%D0%B8%D0%B2%D1%96%D1%82?a=%C3%B1'],
    ['/100%25/', '/100%25'],
  ]) {
    const response = await fetch(`${stack.urls.web}${path}`, { redirect: 'manual' });
    expect({ path, status: response.status, location: response.headers.get('location') }).toEqual({ path, status: 301, location });
  }
});

// Security audit L10: the local site sends the same narrowed policy as CloudFront, and a Permissions-Policy.
test('pages carry a CSP without any-host sources, and a Permissions-Policy', async () => {
  const page = await fetch(`${stack.urls.web}/pricing`);
  const csp = page.headers.get('content-security-policy')!;
  expect(csp.split(/[ ;]+/)).not.toEqual(expect.arrayContaining(['https:', 'wss:']));
  expect(csp).not.toContain('googletagmanager');
  expect(page.headers.get('permissions-policy')).toContain('camera=()');
});

// Runs the CloudFront Function's own file, as CloudFront would: a global `handler(event)`.
import { readFileSync } from 'node:fs';
import { viewerRequestFunctionFile } from './web-stack';

interface CloudFrontRequest { uri: string; method?: string }
const handler = new Function(`${readFileSync(viewerRequestFunctionFile, 'utf8')}; return handler;`)() as (event: { request: CloudFrontRequest }) => CloudFrontRequest;
const rewrite = (uri: string) => handler({ request: { uri } }).uri;

describe('CloudFront viewer-request function', () => {
  test.each([
    ['/', '/index.html'],
    ['/es', '/es/index.html'],
    ['/es/', '/es/index.html'],
    ['/terms', '/terms/index.html'],
    ['/assets/root-abc123.js', '/assets/root-abc123.js'],
    ['/favicon.ico', '/favicon.ico'],
  ])('public path %s is served from %s', (uri, expected) => {
    expect(rewrite(uri)).toBe(expected);
  });

  test.each(['/app', '/app/dashboard', '/app/auth/login', '/app/streams/abc'])('%s is the client-rendered SPA shell', (uri) => {
    expect(rewrite(uri)).toBe('/__spa-fallback.html');
  });

  test('hashed assets under /app stay themselves', () => {
    expect(rewrite('/app/manifest.json')).toBe('/app/manifest.json');
  });
});

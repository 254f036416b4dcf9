// The site's CSP (web/edge/content-security-policy.ts), security audit L10: the tag manager's hosts only in a build
// that loads one, and no source that lets an XSS send data to any https: host.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHasTagManager, contentSecurityPolicy, permissionsPolicy } from '../web/edge/content-security-policy';

const directives = (policy: string) => Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

test("without a tag manager: our origin, the build's inline scripts, YouTube pictures and the realtime API only", () => {
  const policy = directives(contentSecurityPolicy(["'sha256-abc'"], { realtimeSources: ['wss://abc.execute-api.eu-west-1.amazonaws.com'] }));
  expect(policy['script-src']).toEqual(["'self'", "'sha256-abc'"]);
  expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://yt3.ggpht.com', 'https://yt3.googleusercontent.com']);
  expect(policy['media-src']).toEqual(["'self'", 'blob:']);
  expect(policy['connect-src']).toEqual(["'self'", 'wss://abc.execute-api.eu-west-1.amazonaws.com']);
  for (const sources of Object.values(policy)) expect(sources).not.toEqual(expect.arrayContaining(['https:', 'wss:', 'http:', '*']));
});

test('with a tag manager, its hosts (and only they) are added', () => {
  const policy = directives(contentSecurityPolicy([], { tagManager: true }));
  expect(policy['script-src']).toEqual(["'self'", 'https://www.googletagmanager.com']);
  expect(policy['connect-src']).toEqual(["'self'", 'https://www.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com']);
});

test('a build has a tag manager when its public pages carry an id', () => {
  const build = (options: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcast-build-'));
    mkdirSync(join(dir, 'es'));
    writeFileSync(join(dir, 'es', 'index.html'), `<script>(function(){})(${options});</script>`);
    return dir;
  };
  expect(buildHasTagManager(build('{"consentKey":"k","tagManagerId":null}'))).toBe(false);
  expect(buildHasTagManager(build('{"consentKey":"k","tagManagerId":"GTM-ABC123"}'))).toBe(true);
});

test('the permissions policy turns off what no page uses', () => {
  expect(permissionsPolicy).toContain('camera=()');
  expect(permissionsPolicy).toContain('microphone=()');
  expect(permissionsPolicy).toContain('geolocation=()');
  expect(permissionsPolicy).not.toContain('fullscreen');
});

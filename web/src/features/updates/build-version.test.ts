import { isBuildOutdated } from './build-version';

const answer = (status: number, body: unknown) => (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('outdated build detection', () => {
  test('a different deployed version is outdated', async () => {
    await expect(isBuildOutdated('aaaa1111', answer(200, { version: 'bbbb2222' }))).resolves.toBe(true);
  });

  test('the same version, bad answers and failures are not', async () => {
    await expect(isBuildOutdated('aaaa1111', answer(200, { version: 'aaaa1111' }))).resolves.toBe(false);
    await expect(isBuildOutdated('aaaa1111', answer(404, { version: 'bbbb2222' }))).resolves.toBe(false);
    await expect(isBuildOutdated('aaaa1111', answer(200, ['bbbb2222']))).resolves.toBe(false);
    await expect(isBuildOutdated('aaaa1111', answer(200, { version: 42 }))).resolves.toBe(false);
    await expect(isBuildOutdated('aaaa1111', (async () => Promise.reject(new TypeError('offline'))) as typeof fetch)).resolves.toBe(false);
    await expect(isBuildOutdated(undefined, answer(200, { version: 'bbbb2222' }))).resolves.toBe(false);
  });
});

import { CHUNK_RELOAD_WINDOW_MS, isChunkLoadError, reloadAfterChunkError } from './chunk-reload';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('reload after a chunk-loading error', () => {
  test('reloads once, then not again for the same path within 10 s, then again', () => {
    const storage = memoryStorage();
    let reloads = 0;
    const reload = () => void reloads++;
    expect(reloadAfterChunkError('/app/streams', storage, 1_000_000, reload)).toBe(true);
    expect(reloadAfterChunkError('/app/streams', storage, 1_000_000 + CHUNK_RELOAD_WINDOW_MS - 1, reload)).toBe(false);
    expect(reloadAfterChunkError('/app/videos', storage, 1_000_500, reload)).toBe(true);
    expect(reloadAfterChunkError('/app/streams', storage, 1_000_000 + CHUNK_RELOAD_WINDOW_MS, reload)).toBe(true);
    expect(reloads).toBe(3);
  });

  test('recognises the browsers’ chunk errors and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

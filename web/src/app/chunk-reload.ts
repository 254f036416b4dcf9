// A chunk that fails to load usually means a new deploy replaced the hashed files this page refers to: reload the
// page, but at most once per 10 s for the same path (spec section 8), so a real outage does not loop.

export const CHUNK_RELOAD_WINDOW_MS = 10_000;
export const CHUNK_RELOAD_KEY_PREFIX = 'loopcast:chunk-reload:';
const storageKey = (path: string) => `${CHUNK_RELOAD_KEY_PREFIX}${path}`;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}

/** Reloads unless this path already reloaded within the window; returns whether it reloads. */
export function reloadAfterChunkError(path: string, storage: Pick<Storage, 'getItem' | 'setItem'> | undefined, now: number, reload: () => void): boolean {
  const last = Number(storage?.getItem(storageKey(path)) ?? 0);
  if (now - last < CHUNK_RELOAD_WINDOW_MS) return false;
  try {
    storage?.setItem(storageKey(path), String(now));
  } catch {
    // storage full or blocked: reload anyway; without storage the window cannot be kept, the browser still shows the page
  }
  reload();
  return true;
}

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The browser's own reload, for the root error boundary and Vite's preload errors. */
export const reloadPageAfterChunkError = (): boolean =>
  reloadAfterChunkError(window.location.pathname, sessionStore(), Date.now(), () => window.location.reload());

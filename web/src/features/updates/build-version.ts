// Outdated-build detection (spec sections 7 and 9): every hour the page fetches /build-id.json, which the build
// writes with the version of React Router's manifest (react-router.config.ts), and compares it with the version
// it runs. A different version means a deploy happened since the page loaded.

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
export const BUILD_ID_PATH = '/build-id.json';

/** The manifest version this page runs, or undefined outside a built app. */
export const runningVersion = (): string | undefined => (window as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version;

/** Whether the deployed build differs from `current`; false when it cannot be told (offline, bad answer). */
export async function isBuildOutdated(current: string | undefined, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  if (!current) return false;
  try {
    const response = await fetchImpl(BUILD_ID_PATH, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!response.ok) return false;
    const body: unknown = await response.json();
    const deployed = typeof body === 'object' && body !== null ? (body as { version?: unknown }).version : undefined;
    return typeof deployed === 'string' && deployed !== '' && deployed !== current;
  } catch {
    return false;
  }
}

// When the app's own start-up code cannot be fetched (a deploy replaced the hashed files, or the network dropped
// them), the browser fires `error` at React Router's module script and nothing of React runs: no error boundary,
// only the loading spinner. This inline script, placed before that module script, applies the chunk rule there too:
// reload once per 10 s for the path (the same record as app/chunk-reload.ts), and otherwise reveal the static error
// screen the shell carries (root HydrateFallback). A page that is itself a reload counts as reloaded, which also
// covers React Router's own reload after a route module failed to load during a navigation.
import { CHUNK_RELOAD_KEY_PREFIX, CHUNK_RELOAD_WINDOW_MS } from './chunk-reload';

export const STARTUP_ERROR_ID = 'startup-error';

interface StartupGuardOptions {
  keyPrefix: string;
  windowMs: number;
  errorScreenId: string;
}

function guardStartup(options: StartupGuardOptions): void {
  window.addEventListener(
    'error',
    (event) => {
      const failed = event.target as HTMLScriptElement | null;
      if (!failed || failed.tagName !== 'SCRIPT' || failed.type !== 'module') return;
      const key = options.keyPrefix + window.location.pathname;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      let last = 0;
      try {
        last = Number(window.sessionStorage.getItem(key) ?? 0);
      } catch {
        last = 0;
      }
      if (navigation?.type !== 'reload' && Date.now() - last >= options.windowMs) {
        try {
          window.sessionStorage.setItem(key, String(Date.now()));
        } catch {
          // without storage the page view itself (a reload) stops the next round
        }
        window.location.reload();
        return;
      }
      const screen = document.getElementById(options.errorScreenId);
      if (screen) {
        screen.hidden = false;
        screen.previousElementSibling?.setAttribute('hidden', '');
      }
    },
    true,
  );
}

const options: StartupGuardOptions = { keyPrefix: CHUNK_RELOAD_KEY_PREFIX, windowMs: CHUNK_RELOAD_WINDOW_MS, errorScreenId: STARTUP_ERROR_ID };

export const startupGuardScript = `(${guardStartup.toString()})(${JSON.stringify(options)});`;

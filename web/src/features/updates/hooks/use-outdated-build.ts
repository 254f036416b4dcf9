import { useEffect } from 'react';
import { BUILD_CHECK_INTERVAL_MS, isBuildOutdated, runningVersion } from '../build-version';

/** Checks hourly for a newer deploy and calls `onOutdated` once when one is found. */
export function useOutdatedBuild(onOutdated: () => void): void {
  useEffect(() => {
    const current = runningVersion();
    if (!current) return;
    const timer = setInterval(() => {
      void isBuildOutdated(current).then((outdated) => {
        if (!outdated) return;
        clearInterval(timer);
        onOutdated();
      });
    }, BUILD_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [onOutdated]);
}

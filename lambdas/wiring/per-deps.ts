// Contexts are made once per Deps (a Lambda container's, the local stack's, or one local function's view of it) and
// reused by every call, instead of new stores on every request. What a live Deps may have replaced after its
// contexts exist (tests move the clock and swap the mailer; the local stack learns its public URL once its server
// listens) is read through Deps at call time, never copied into a context.
import type { Mailer } from '../core/accounts/ports';
import type { Deps } from './deps';

/** `make`, called once per Deps object and its result kept for that Deps' life. */
export function perDeps<T>(make: (deps: Deps) => T): (deps: Deps) => T {
  const made = new WeakMap<Deps, T>();
  return (deps) => {
    if (!made.has(deps)) made.set(deps, make(deps));
    return made.get(deps) as T;
  };
}

/** Deps' clock as it is at each call. */
export const clockOf =
  (deps: Deps): (() => Date) =>
  () =>
    deps.now();

/** Deps' mailer as it is at each call. */
export const mailerOf = (deps: Deps): Mailer => ({ send: (message) => deps.mailer.send(message) });

// Holding back the outcome of a user's transcodes, so a test can act on an item that is certainly still `encoding`.
// The stack's real transcoder (ffmpeg) still does the work; only its final update (`completed` or `failed`) waits
// until the test releases it, as a slow MediaConvert job would. Nothing here depends on timing.
import type { TranscodeUpdate } from '../../lambdas/core/media/transcoder';
import { transcoderOf } from '../../lambdas/wiring/media';
import type { LocalStack } from '../../local/stack';

type FinalUpdate = Exclude<TranscodeUpdate, { type: 'progress' }>;

export interface HeldTranscodes {
  /** From now on, the outcome of every transcode of this user's items waits for `release`. */
  hold(userId: string): void;
  /** Resolves once the transcode of this item has ended and its outcome is held: the item is still `encoding`. */
  ended(videoId: string): Promise<FinalUpdate>;
  /** Delivers this user's held outcomes (the item settles as usual) and stops holding. Harmless when none. */
  release(userId: string): Promise<void>;
}

interface Held {
  update: FinalUpdate;
  deliver: () => void;
  delivered: Promise<void>;
}

/**
 * Wraps the stack's transcoder listener. Call right after the stack starts, before any media request: the
 * transcoder is made once per Deps (lambdas/wiring/media.ts), so this throws if it was made already.
 */
export function holdTranscodes(stack: LocalStack): HeldTranscodes {
  const holding = new Set<string>();
  const held: Held[] = [];
  const waiters = new Map<string, ((update: FinalUpdate) => void)[]>();
  const original = stack.deps.makeTranscoder;
  let wrapped = false;
  stack.deps.makeTranscoder = (onUpdate) => {
    wrapped = true;
    return original(async (update) => {
      if (update.type !== 'progress' && holding.has(update.job.userId)) {
        let deliver!: () => void;
        const released = new Promise<void>((resolve) => {
          deliver = resolve;
        });
        let delivered!: () => void;
        const entry: Held = {
          update,
          deliver,
          delivered: new Promise<void>((resolve) => {
            delivered = resolve;
          }),
        };
        held.push(entry);
        for (const waiter of waiters.get(update.job.videoId) ?? []) waiter(update);
        waiters.delete(update.job.videoId);
        await released;
        try {
          await onUpdate(update);
        } finally {
          delivered();
        }
        return;
      }
      await onUpdate(update);
    });
  };
  // Make the transcoder now: if it existed before, the wrapper above would never be used.
  transcoderOf(stack.deps);
  if (!wrapped) throw new Error("holdTranscodes: the stack's transcoder was made before the hold was installed");

  return {
    hold: (userId) => {
      holding.add(userId);
    },
    ended: (videoId) => {
      const already = held.find((h) => h.update.job.videoId === videoId);
      if (already) return Promise.resolve(already.update);
      return new Promise((resolve) => {
        waiters.set(videoId, [...(waiters.get(videoId) ?? []), resolve]);
      });
    },
    release: async (userId) => {
      holding.delete(userId);
      const mine = held.filter((h) => h.update.job.userId === userId);
      for (const h of mine) held.splice(held.indexOf(h), 1);
      for (const h of mine) h.deliver();
      await Promise.all(mine.map((h) => h.delivered));
    },
  };
}

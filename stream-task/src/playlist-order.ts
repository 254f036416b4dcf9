// The order a playlist plays in, pass after pass: as listed, or shuffled afresh for every pass. Pure; the random
// numbers are given (Math.random in the task, a seeded generator in tests).

/** Draws before giving up on the rules below (each draw keeps them with a probability of at least 1/2 from three items on). */
const MAX_DRAWS = 64;

/**
 * The items' indexes for one pass. Shuffled: a uniform permutation (Fisher-Yates) among those that never start with
 * the item the previous pass ended with (it would play twice in a row) and, from three items on, differ from the
 * previous pass's order (a fresh order every pass). With two items the first rule leaves only the previous order.
 */
export function passOrder(count: number, shuffle: boolean, random: () => number, previous?: readonly number[]): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (!shuffle) return order;
  const allowed = (candidate: number[]) => !previous?.length || (candidate[0] !== previous.at(-1) && (count < 3 || candidate.join() !== previous.join()));
  for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
    for (let i = count - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    if (count < 2 || allowed(order)) return order;
  }
  // Not reached in practice (64 draws that each fail with probability <= 1/2): keep at least the first rule.
  if (order[0] === previous?.at(-1)) [order[0], order[1]] = [order[1]!, order[0]!];
  return order;
}

/** A small seeded generator (mulberry32): the same seed, the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The order a playlist plays in, pass after pass: as listed, or shuffled afresh for every pass. Pure; the random
// numbers are given (Math.random in the task, a seeded generator in tests).

/**
 * The items' indexes for one pass. Shuffled: a uniform permutation (Fisher-Yates), except that a pass never starts
 * with the item the previous pass ended with (that item would play twice in a row), when there is another.
 */
export function passOrder(count: number, shuffle: boolean, random: () => number, previousLast?: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (!shuffle) return order;
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  if (count > 1 && order[0] === previousLast) {
    const swapWith = 1 + Math.floor(random() * (count - 1));
    [order[0], order[swapWith]] = [order[swapWith]!, order[0]!];
  }
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

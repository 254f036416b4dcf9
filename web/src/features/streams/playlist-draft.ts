// A playlist being edited in the browser: the videos in play order. Pure.

/** The list with the item at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveItem(ids: readonly string[], index: number, step: -1 | 1): string[] {
  const target = index + step;
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return [...ids];
  const next = [...ids];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export const removeItem = (ids: readonly string[], index: number): string[] => ids.filter((_, i) => i !== index);

/** The total length of the videos, in seconds, when every one's is known. */
export function playlistSeconds(ids: readonly string[], durations: ReadonlyMap<string, number | undefined>): number | undefined {
  let total = 0;
  for (const id of ids) {
    const seconds = durations.get(id);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

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

/** What the library knows of a video that decides whether stream copy can join it to another. */
export interface JoinableVideo {
  id: string;
  width?: number | undefined;
  height?: number | undefined;
  output?: { frameRate: number } | undefined;
}

export interface JoinShape {
  width: number;
  height: number;
  frameRate: number;
}

const shapeOf = (video: JoinableVideo | undefined): JoinShape | undefined =>
  video?.width !== undefined && video.height !== undefined && video.output
    ? { width: video.width, height: video.height, frameRate: video.output.frameRate }
    : undefined;

const sameShape = (a: JoinShape, b: JoinShape) => a.width === b.width && a.height === b.height && a.frameRate === b.frameRate;

/**
 * The playlist's videos that cannot follow its first without re-encoding (another picture size or frame rate, as
 * the API refuses them), each once, with the first's shape; undefined when every video whose shape is known fits.
 */
export function playlistMismatch(
  ids: readonly string[],
  videos: readonly JoinableVideo[],
): { first: { id: string; shape: JoinShape }; odd: { id: string; shape: JoinShape }[] } | undefined {
  const known = [...new Set(ids)].flatMap((id) => {
    const shape = shapeOf(videos.find((video) => video.id === id));
    return shape ? [{ id, shape }] : [];
  });
  const [first] = known;
  const odd = known.filter((item) => !sameShape(item.shape, first!.shape));
  return first && odd.length ? { first, odd } : undefined;
}

import { seededRandom } from './playlist-order';
import { PlaylistRuntime, type PlaylistContent, type PlaylistItem } from './playlist';

const profile = { videoCodec: 'h264', width: 1920, height: 1080, frameRate: '30/1', pixelFormat: 'yuv420p' };
const item = (id: string, seconds = 10): PlaylistItem => ({
  id,
  path: `/w/playlist/${id}/item.flv`,
  durationUs: seconds * 1e6,
  firstVideoMs: 0,
  profile,
  bitrateKbps: 4500,
});
const content = (revision: number, ids: string[], shuffle = false): PlaylistContent => ({ revision, shuffle, items: ids.map((id) => item(id)) });

/** The ids of the next `count` items the feeder would play. */
const play = (runtime: PlaylistRuntime, count: number) => Array.from({ length: count }, () => runtime.advance().id);

describe('a playlist while it plays', () => {
  test('in order, looping the list', () => {
    const passes: string[][] = [];
    const runtime = new PlaylistRuntime(content(0, ['a', 'b', 'c']), seededRandom(1), { onPass: (ids) => passes.push([...ids]) });
    expect(runtime.current().id).toBe('a');
    expect(play(runtime, 5)).toEqual(['b', 'c', 'a', 'b', 'c']);
    expect(passes).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    expect(runtime.passDurationUs).toBe(30e6);
  });

  test('shuffled: every pass plays each item once, in a fresh order', () => {
    const passes: string[][] = [];
    const runtime = new PlaylistRuntime(content(0, ['a', 'b', 'c', 'd'], true), seededRandom(5), { onPass: (ids) => passes.push([...ids]) });
    play(runtime, 4 * 6 - 1);
    expect(passes).toHaveLength(6);
    for (const pass of passes) expect([...pass].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(new Set(passes.map((pass) => pass.join())).size).toBeGreaterThan(1);
  });

  test("an edit for the next join takes effect when the current item ends, from the new list's first item", () => {
    const retired: string[] = [];
    const runtime = new PlaylistRuntime(content(1, ['a', 'b', 'c']), seededRandom(1), { onRetired: (items) => retired.push(...items.map((i) => i.id)) });
    runtime.advance(); // b plays
    runtime.update(content(2, ['x', 'c']), 'join');
    expect(runtime.status()).toEqual({ revision: 2, applied: 1, videoId: 'b' });
    expect(play(runtime, 4)).toEqual(['x', 'c', 'x', 'c']);
    expect(runtime.status()).toEqual({ revision: 2, applied: 2, videoId: 'c' });
    expect(retired).toEqual(['a', 'b']); // c is still played: its file stays
  });

  test('an edit for the next restart waits for a new ffmpeg run; joins go on with the old list', () => {
    const runtime = new PlaylistRuntime(content(1, ['a', 'b']), seededRandom(1));
    runtime.update(content(2, ['x', 'y']), 'restart');
    expect(play(runtime, 3)).toEqual(['b', 'a', 'b']);
    runtime.restart();
    expect(runtime.current().id).toBe('x');
    expect(runtime.status()).toEqual({ revision: 2, applied: 2, videoId: 'x' });
  });

  test('a restart without an edit plays the item that was playing again', () => {
    const runtime = new PlaylistRuntime(content(1, ['a', 'b', 'c']), seededRandom(1));
    runtime.advance();
    runtime.restart();
    expect(runtime.current().id).toBe('b');
    expect(play(runtime, 2)).toEqual(['c', 'a']);
  });

  test('older or repeated revisions are ignored; a newer waiting edit replaces the waiting one', () => {
    const retired: string[] = [];
    const runtime = new PlaylistRuntime(content(3, ['a', 'b']), seededRandom(1), { onRetired: (items) => retired.push(...items.map((i) => i.id)) });
    runtime.update(content(3, ['x']), 'join');
    runtime.update(content(2, ['x']), 'join');
    expect(runtime.status().revision).toBe(3);
    runtime.update(content(4, ['x', 'y']), 'restart');
    runtime.update(content(5, ['y', 'z']), 'join');
    expect(retired).toEqual(['x']); // the replaced edit's item nobody plays any more
    expect(runtime.status()).toEqual({ revision: 5, applied: 3, videoId: 'a' });
    expect(runtime.advance().id).toBe('y');
    expect(runtime.items().map((i) => i.id)).toEqual(['y', 'z']);
  });

  test('where the stream is: the item playing and the seconds since it began', () => {
    const runtime = new PlaylistRuntime(content(0, ['a', 'b']), seededRandom(1));
    expect(runtime.position(5_000)).toEqual({ path: '/w/playlist/a/item.flv', seconds: 0 });
    runtime.began(10_000);
    expect(runtime.position(12_500)).toEqual({ path: '/w/playlist/a/item.flv', seconds: 2.5 });
  });

  test('an empty playlist is refused', () => {
    expect(() => new PlaylistRuntime(content(0, []))).toThrow('at least one item');
    const runtime = new PlaylistRuntime(content(0, ['a']));
    expect(() => runtime.update(content(1, []), 'join')).toThrow('at least one item');
  });
});

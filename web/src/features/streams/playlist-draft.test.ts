import { moveItem, playlistSeconds, removeItem } from './playlist-draft';

test('items move one place at a time and stay put at the ends', () => {
  expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
  expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
});

test('an item is removed by its place, so a video listed twice loses one entry', () => {
  expect(removeItem(['a', 'b', 'a'], 2)).toEqual(['a', 'b']);
});

test("the length of a pass, once every video's is known", () => {
  const durations = new Map([
    ['a', 3],
    ['b', 5.5],
    ['c', undefined],
  ]);
  expect(playlistSeconds(['a', 'b', 'a'], durations)).toBe(11.5);
  expect(playlistSeconds(['a', 'c'], durations)).toBeUndefined();
});

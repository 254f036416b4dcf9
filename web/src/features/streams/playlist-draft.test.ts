import { moveItem, playlistMismatch, playlistSeconds, removeItem } from './playlist-draft';

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

test('videos that cannot follow the first without re-encoding: another picture size or frame rate, each named once', () => {
  const hd30 = { width: 1920, height: 1080, output: { frameRate: 30 } };
  const videos = [
    { id: 'a', ...hd30 },
    { id: 'b', ...hd30 },
    { id: 'small', width: 1280, height: 720, output: { frameRate: 30 } },
    { id: 'fast', width: 1920, height: 1080, output: { frameRate: 60 } },
    { id: 'encoding' },
  ];
  expect(playlistMismatch(['a', 'b', 'a', 'encoding'], videos)).toBeUndefined();
  expect(playlistMismatch(['encoding', 'a', 'small', 'b', 'small', 'fast'], videos)).toEqual({
    first: { id: 'a', shape: { width: 1920, height: 1080, frameRate: 30 } },
    odd: [
      { id: 'small', shape: { width: 1280, height: 720, frameRate: 30 } },
      { id: 'fast', shape: { width: 1920, height: 1080, frameRate: 60 } },
    ],
  });
  expect(playlistMismatch([], videos)).toBeUndefined();
  expect(playlistMismatch(['gone', 'small'], videos)).toBeUndefined();
});

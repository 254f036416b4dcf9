import { AppError } from '../errors';
import type { Video } from '../media/videos';
import { checkPlaylist, nextPlaylist, pendingEdit, streamVideoIds, taskPlaylist, type StreamPlaylist } from './playlist';

const video = (id: string, changes: Partial<Video> = {}): Video => ({
  id,
  userId: 'u1',
  kind: 'video',
  title: id,
  fileName: `${id}.mp4`,
  status: 'ready',
  progress: 100,
  sourceKey: `s/${id}`,
  stagingKeys: [],
  sourceBytes: 1,
  storedBytes: 1,
  outputKey: `media/u1/${id}/stream.mp4`,
  width: 1920,
  height: 1080,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
  ...changes,
});
const library = (items: Video[]) => ({ get: async (userId: string, id: string) => items.find((item) => item.id === id && item.userId === userId) });
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: AppError) => ({ key: error.key, details: error.details }),
  );

describe("a stream's playlist", () => {
  const videos = library([
    video('a'),
    video('b'),
    video('c'),
    video('song', { kind: 'audio' }),
    video('small', { width: 1280, height: 720 }),
    video('fast', { output: { profile: '1080p60', tier: 'high', frameRate: 60, videoBitrate: 9_000_000, limitedBy: [] } }),
    video('new', { status: 'encoding', width: undefined, height: undefined, outputKey: undefined }),
  ]);

  test("videos of the user, of one picture size and frame rate, within the plan's length; an item may come twice", async () => {
    expect((await checkPlaylist(videos, 'u1', { videoIds: ['a', 'b', 'a', 'new'], shuffle: false }, { playlistItems: 5 })).map((v) => v.id)).toEqual([
      'a',
      'b',
      'new',
    ]);
    expect(await errorOf(checkPlaylist(videos, 'u1', { videoIds: ['a', 'b', 'c'], shuffle: true }, { playlistItems: 2 }))).toEqual({
      key: 'playlist limit',
      details: undefined,
    });
    expect(await errorOf(checkPlaylist(videos, 'u1', { videoIds: ['a', 'nope'], shuffle: false }, { playlistItems: 5 }))).toEqual({
      key: 'not found',
      details: { field: 'playlist' },
    });
    expect(await errorOf(checkPlaylist(videos, 'u2', { videoIds: ['a'], shuffle: false }, { playlistItems: 5 }))).toEqual({
      key: 'not found',
      details: { field: 'playlist' },
    });
    expect(await errorOf(checkPlaylist(videos, 'u1', { videoIds: ['a', 'song'], shuffle: false }, { playlistItems: 5 }))).toEqual({
      key: 'invalid request',
      details: { fields: { playlist: 'must be videos, not audio tracks' } },
    });
    expect(await errorOf(checkPlaylist(videos, 'u1', { videoIds: ['a', 'small', 'b', 'small'], shuffle: false }, { playlistItems: 5 }))).toEqual({
      key: 'invalid request',
      details: { fields: { playlist: 'every video needs the same picture size and frame rate' }, videoIds: ['small'] },
    });
    // The same size at another frame rate cannot be joined by stream copy either.
    expect(await errorOf(checkPlaylist(videos, 'u1', { videoIds: ['fast', 'a', 'b'], shuffle: false }, { playlistItems: 5 }))).toEqual({
      key: 'invalid request',
      details: { fields: { playlist: 'every video needs the same picture size and frame rate' }, videoIds: ['a', 'b'] },
    });
  });

  test('each edit is the next revision, with how it applies', () => {
    const first = nextPlaylist(undefined, { videoIds: ['a', 'b'], shuffle: false }, 'join');
    expect(first).toEqual({ videoIds: ['a', 'b'], shuffle: false, revision: 0, apply: 'join' });
    expect(nextPlaylist(first, { videoIds: ['b'], shuffle: true }, 'restart')).toEqual({ videoIds: ['b'], shuffle: true, revision: 1, apply: 'restart' });
  });

  test('the videos a stream plays', () => {
    expect(streamVideoIds({ videoId: 'a' })).toEqual(['a']);
    expect(streamVideoIds({ videoId: 'a', playlist: { videoIds: ['a', 'b', 'a'] } })).toEqual(['a', 'b']);
    expect(streamVideoIds({})).toEqual([]);
  });

  test('the task gets each item with a download URL (one per video), and an edit only while it has an older revision', async () => {
    const signed: string[] = [];
    const downloadUrl = async (key: string) => {
      signed.push(key);
      return `https://media.example/${key}?signed`;
    };
    const playlist: StreamPlaylist = { videoIds: ['a', 'b', 'a'], shuffle: true, revision: 3, apply: 'restart' };
    expect(await taskPlaylist(videos, downloadUrl, 'u1', playlist)).toEqual({
      revision: 3,
      shuffle: true,
      items: [
        { id: 'a', url: 'https://media.example/media/u1/a/stream.mp4?signed' },
        { id: 'b', url: 'https://media.example/media/u1/b/stream.mp4?signed' },
        { id: 'a', url: 'https://media.example/media/u1/a/stream.mp4?signed' },
      ],
    });
    expect(signed).toHaveLength(2);
    const context = { streams: { get: async () => ({ playlist }) }, videos, media: { downloadUrl } };
    expect(await pendingEdit(context, 'u1', 's1', 2)).toMatchObject({ playlist: { revision: 3 }, apply: 'restart' });
    expect(await pendingEdit(context, 'u1', 's1', 3)).toBeUndefined();
    expect(await errorOf(taskPlaylist(videos, downloadUrl, 'u1', { ...playlist, videoIds: ['new'] }))).toEqual({
      key: 'not found',
      details: { field: 'playlist' },
    });
  });
});

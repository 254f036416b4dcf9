import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mediaLockedStatuses, type StreamStatus } from '../../core/streams/stream';
import type { StreamPlaylist } from '../../core/streams/playlist';
import { createTestTable } from '../../../test/helpers/test-table';
import { streamKey } from './keys';
import { DynamoStreamLinks } from './stream-links';

let db: DynamoDBDocumentClient;
let table: string;
let links: DynamoStreamLinks;
beforeAll(async () => {
  ({ db, table } = await createTestTable());
  links = new DynamoStreamLinks(db, table);
});
afterAll(() => db.destroy());

const playlistOf = (videoIds: string[], revision: number): StreamPlaylist => ({ videoIds, shuffle: false, revision, apply: 'join' });

async function putStream(userId: string, id: string, status: StreamStatus, media: { videoId?: string; audioId?: string; playlist?: StreamPlaylist }) {
  await db.send(new PutCommand({ TableName: table, Item: { ...streamKey(userId, id), id, userId, status, ...media } }));
}

const stored = async (userId: string, id: string) => (await db.send(new GetCommand({ TableName: table, Key: streamKey(userId, id) }))).Item;

test("finds the user's streams whose video, audio track or playlist names the item, and no one else's", async () => {
  await putStream('u1', 's1', 'stopped', { videoId: 'v1' });
  await putStream('u1', 's2', 'started', { videoId: 'v2', audioId: 'v1' });
  await putStream('u1', 's3', 'encoding', { videoId: 'v3', playlist: playlistOf(['v3', 'v1'], 0) });
  await putStream('u1', 's4', 'stopped', { videoId: 'v4' });
  await putStream('u2', 's5', 'stopped', { videoId: 'v1' });
  const found = await links.streamsUsing('u1', 'v1');
  expect(found.map(({ id, status }) => ({ id, status })).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
    { id: 's1', status: 'stopped' },
    { id: 's2', status: 'started' },
    { id: 's3', status: 'encoding' },
  ]);
});

test('removes a video or audio track unless the stream is in one of the statuses given', async () => {
  await putStream('u3', 'idle', 'stopped', { videoId: 'v1', audioId: 'a1' });
  await putStream('u3', 'live', 'started', { videoId: 'v1' });
  expect(await links.removeMedia('u3', 'idle', 'audioId', 'a1', mediaLockedStatuses)).toBe(true);
  expect(await links.removeMedia('u3', 'live', 'videoId', 'v1', mediaLockedStatuses)).toBe(false);
  // Only while it still names the item.
  expect(await links.removeMedia('u3', 'idle', 'videoId', 'other', mediaLockedStatuses)).toBe(false);
  expect(await stored('u3', 'idle')).toMatchObject({ videoId: 'v1' });
  expect((await stored('u3', 'idle'))?.audioId).toBeUndefined();
  expect(await stored('u3', 'live')).toMatchObject({ videoId: 'v1' });
  // With no statuses given, the status does not matter.
  expect(await links.removeMedia('u3', 'live', 'videoId', 'v1', [])).toBe(true);
  expect((await stored('u3', 'live'))?.videoId).toBeUndefined();
});

test('replaces a playlist at its revision unless the stream is in one of the statuses given; removes it with its video', async () => {
  await putStream('u4', 'idle', 'stopped', { videoId: 'v1', playlist: playlistOf(['v1', 'v2'], 2) });
  await putStream('u4', 'live', 'pending', { videoId: 'v1', playlist: playlistOf(['v1', 'v2'], 0) });
  const next = { playlist: playlistOf(['v2'], 3), videoId: 'v2' };
  expect(await links.replacePlaylist('u4', 'idle', 1, next, mediaLockedStatuses)).toBe(false);
  expect(await links.replacePlaylist('u4', 'live', 0, { playlist: playlistOf(['v2'], 1), videoId: 'v2' }, mediaLockedStatuses)).toBe(false);
  expect(await links.replacePlaylist('u4', 'idle', 2, next, mediaLockedStatuses)).toBe(true);
  expect(await stored('u4', 'idle')).toMatchObject({ videoId: 'v2', playlist: next.playlist });
  expect(await stored('u4', 'live')).toMatchObject({ videoId: 'v1', playlist: playlistOf(['v1', 'v2'], 0) });
  expect(await links.replacePlaylist('u4', 'idle', 3, undefined, mediaLockedStatuses)).toBe(true);
  const emptied = await stored('u4', 'idle');
  expect(emptied?.playlist).toBeUndefined();
  expect(emptied?.videoId).toBeUndefined();
});

// A stream's playlist: several library videos played one after another, in order or shuffled afresh for every pass,
// the list looping (docs/streams.md, "Playlists"). Every item is stream-ready, so the task joins them by stream copy
// (stream-task/src/feeder.ts); the picture size and frame rate must match across items (the sound is the stream-ready
// profile's). A running stream's playlist may be edited: the edit is stored with a new revision, and the task, whose
// heartbeat reports the revision it has, gets it in the heartbeat's answer and applies it at the next join or at its
// next ffmpeg start, as the creator chose.
import type { StreamPlaylist } from '../../contract/api/streams';
import type { PlaylistApply, TaskPlaylist } from '../../contract/stream-task';

export type { StreamPlaylist };
import { AppError } from '../errors';
import { legacyOutput, type Video } from '../media/videos';
import type { PlanLimits } from '../plans';

export interface PlaylistInput {
  videoIds: string[];
  shuffle: boolean;
}

type VideoLookup = { get(userId: string, videoId: string): Promise<Video | undefined> };

/** The videos a stream plays: its playlist's, or its one video. */
export const streamVideoIds = (stream: { videoId?: string; playlist?: Pick<StreamPlaylist, 'videoIds'> }): string[] =>
  stream.playlist ? [...new Set(stream.playlist.videoIds)] : stream.videoId ? [stream.videoId] : [];

/** What stream copy needs alike in every item, as far as the library knows it: picture size and frame rate. */
const joinShape = (video: Video) => `${video.width}x${video.height} ${(video.output ?? legacyOutput).frameRate} fps`;

/** The items must be the user's videos (not audio tracks), within the plan's playlist length, of one picture size
 * and frame rate; a refusal names the videos that differ from the first (`details.videoIds`). */
export async function checkPlaylist(videos: VideoLookup, userId: string, input: PlaylistInput, limits: Pick<PlanLimits, 'playlistItems'>): Promise<Video[]> {
  if (input.videoIds.length > limits.playlistItems) throw new AppError('playlist limit');
  const items: Video[] = [];
  for (const id of new Set(input.videoIds)) {
    const video = await videos.get(userId, id);
    if (!video) throw new AppError('not found', { field: 'playlist' });
    if (video.kind !== 'video') throw new AppError('invalid request', { fields: { playlist: 'must be videos, not audio tracks' } });
    items.push(video);
  }
  // Sizes are known once transcoded: an item still encoding is checked when the stream starts (the task checks the
  // whole profile before it streams).
  const known = items.filter((video) => video.width !== undefined);
  const odd = known.filter((video) => joinShape(video) !== joinShape(known[0]!));
  if (odd.length)
    throw new AppError('invalid request', {
      fields: { playlist: 'every video needs the same picture size and frame rate' },
      videoIds: odd.map((video) => video.id),
    });
  return items;
}

/** The playlist a stream will have after an edit: the next revision. */
export const nextPlaylist = (current: StreamPlaylist | undefined, input: PlaylistInput, apply: PlaylistApply): StreamPlaylist => ({
  videoIds: [...input.videoIds],
  shuffle: input.shuffle,
  revision: current ? current.revision + 1 : 0,
  apply,
});

/** The edit a running task does not have yet (its heartbeat reported an older revision), ready to send. */
export async function pendingEdit(
  context: {
    streams: { get(userId: string, streamId: string): Promise<{ playlist?: StreamPlaylist } | undefined> };
    videos: VideoLookup;
    media: { downloadUrl(key: string): Promise<string> };
  },
  userId: string,
  streamId: string,
  reportedRevision: number,
): Promise<{ playlist: TaskPlaylist; apply: PlaylistApply } | undefined> {
  const playlist = (await context.streams.get(userId, streamId))?.playlist;
  if (!playlist || playlist.revision <= reportedRevision) return undefined;
  return { playlist: await taskPlaylist(context.videos, (key) => context.media.downloadUrl(key), userId, playlist), apply: playlist.apply };
}

/** The playlist as the stream task gets it: each item with a short-lived download URL of its stream-ready file. */
export async function taskPlaylist(
  videos: VideoLookup,
  downloadUrl: (key: string) => Promise<string>,
  userId: string,
  playlist: StreamPlaylist,
): Promise<TaskPlaylist> {
  const urls = new Map<string, string>();
  for (const id of new Set(playlist.videoIds)) {
    const video = await videos.get(userId, id);
    if (!video?.outputKey) throw new AppError('not found', { field: 'playlist' });
    urls.set(id, await downloadUrl(video.outputKey));
  }
  return { revision: playlist.revision, shuffle: playlist.shuffle, items: playlist.videoIds.map((id) => ({ id, url: urls.get(id)! })) };
}

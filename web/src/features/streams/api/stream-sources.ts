// What a stream can be made of: the user's ready videos and audio tracks, their destinations, and how many
// destinations their plan allows per stream. The cache entries are the ones every page shares, each holding the
// API's answer as it is (['videos'] GET /videos, ['channels'] GET /channels, ['subscription'] GET /subscription),
// so realtime's updates (a finished transcode, a plan change) reach the form too.
import { useQuery } from '@tanstack/react-query';
import type { ChannelView } from '@loopcast/contract/api/channels';
import type { VideoView } from '@loopcast/contract/api/videos';
import { channelsQuery, subscriptionQuery, videosQuery } from '../../../api/queries';

export type { ChannelView, VideoView };

export const useStreamChannels = () => useQuery({ ...channelsQuery, select: (answer) => answer.channels });

/** Titles of the user's media by id, to name what a stream plays. */
export const useMediaTitles = () => useQuery({ ...videosQuery, select: (answer) => new Map(answer.videos.map((item) => [item.id, item.title])) });

/** One item of the library as GET /videos has it (its stream-ready properties, for the platforms' check). */
export const useMediaItem = (id: string | undefined) => useQuery({ ...videosQuery, select: (answer) => answer.videos.find((item) => item.id === id) });

/** What each ready video streams at (its stream-ready file's profile, rate and bitrate). */
export const useVideoOutputs = () =>
  useQuery({ ...videosQuery, select: (answer) => new Map(answer.videos.flatMap((item) => (item.output ? [[item.id, item.output] as const] : []))) });

export const useReadyMedia = () =>
  useQuery({
    ...videosQuery,
    select: (answer) => ({
      videos: answer.videos.filter((item) => item.kind === 'video' && item.status === 'ready'),
      audios: answer.videos.filter((item) => item.kind === 'audio' && item.status === 'ready'),
    }),
  });

/** What the plan allows for streams, and how many run now (GET /subscription's limits and usage). */
export interface StreamPlan {
  destinationsPerStream: number;
  concurrentStreams: number;
  runningStreams: number;
  /** Videos one playlist may hold. */
  playlistItems: number;
}

export const useStreamPlan = () =>
  useQuery({
    ...subscriptionQuery,
    select: (answer): StreamPlan => ({
      destinationsPerStream: answer.limits.destinationsPerStream,
      concurrentStreams: answer.limits.concurrentStreams,
      runningStreams: answer.usage.runningStreams,
      playlistItems: answer.limits.playlistItems,
    }),
  });

/** How far the user's library is: videos uploaded (and not failed), and how many of them are ready to stream. */
export const useVideoCounts = () =>
  useQuery({
    ...videosQuery,
    select: (answer) => {
      const videos = answer.videos.filter((item) => item.kind === 'video' && item.status !== 'failed');
      return { uploaded: videos.length, ready: videos.filter((item) => item.status === 'ready').length };
    },
  });

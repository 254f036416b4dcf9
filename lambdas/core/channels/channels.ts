// The destination use cases: add an RTMP destination (server URL + stream key), list, remove.
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { SecretBox } from '../secret-box';
import type { ChannelStore, StreamStore } from '../streams/ports';
import { runningStatuses } from '../streams/stream';
import { CHANNEL_NAME_MAX, isStreamKey, keyHintOf, normalizeRtmpUrl, type Channel } from './channel';

/** Which servers a destination may name: any in the local stack, the public internet only in AWS. */
export interface DestinationPolicy {
  /** Resolves when the server URL may be dialled; throws 'destination not allowed' (or 'invalid request') otherwise. */
  check(rtmpUrl: string): Promise<void>;
}

export interface ChannelsContext {
  channels: ChannelStore;
  destinations: DestinationPolicy;
  streams: StreamStore;
  secrets: SecretBox;
  now: () => Date;
}

export async function addRtmpChannel(context: ChannelsContext, userId: string, input: { name: string; url: string; key: string }): Promise<Channel> {
  const key = input.key.trim();
  if (!isStreamKey(key)) throw new AppError('invalid request', { fields: { key: 'a stream key is printable ASCII without spaces, slashes, question marks or #' } });
  const rtmpUrl = normalizeRtmpUrl(input.url);
  await context.destinations.check(rtmpUrl);
  const id = randomUUID();
  const channel: Channel = {
    id,
    userId,
    kind: 'rtmp',
    name: input.name.trim().slice(0, CHANNEL_NAME_MAX),
    rtmpUrl,
    sealedKey: await context.secrets.seal(key, { userId, channelId: id }),
    keyHint: keyHintOf(key),
    createdAt: context.now().toISOString(),
  };
  await context.channels.create(channel);
  return channel;
}

/** Removes a destination; a running stream going to it must be stopped first, stopped ones forget it. */
export async function removeChannel(context: ChannelsContext, userId: string, channelId: string): Promise<void> {
  if (!(await context.channels.get(userId, channelId))) throw new AppError('not found');
  const streams = (await context.streams.list(userId)).filter((stream) => stream.channelIds.includes(channelId));
  if (streams.some((stream) => runningStatuses.includes(stream.status))) throw new AppError('stream started');
  for (const stream of streams) {
    await context.streams.updateStopped({ ...stream, channelIds: stream.channelIds.filter((id) => id !== channelId), updatedAt: context.now().toISOString() });
  }
  await context.channels.delete(userId, channelId);
}

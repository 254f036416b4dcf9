// The destination use cases: add an RTMP destination (server URL + stream key), rename it or change its address,
// remove it. Two destinations of one user never share a name or a target (server URL + stream key): a second
// publisher on the same key makes both fail at the platform ("Already publishing").
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';
import type { SecretBox } from '../secret-box';
import type { ChannelStore, StreamStore } from '../streams/ports';
import { runningStatuses } from '../streams/stream';
import { sealContext } from '../streams/streams';
import type { DestinationPresetId } from '../../contract/destination-presets';
import { CHANNEL_NAME_MAX, isStreamKey, keyHintOf, normalizeRtmpUrl, type Channel } from './channel';
import { assertProtocolFits, presetOfUrl } from './platform-fit';

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

function cleanKey(key: string): string {
  const clean = key.trim();
  if (!isStreamKey(clean))
    throw new AppError('invalid request', { fields: { key: 'a stream key is printable ASCII without spaces, slashes, question marks or #' } });
  return clean;
}

const cleanName = (name: string) => name.trim().slice(0, CHANNEL_NAME_MAX);
const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/** Refuses a name or a target another of the user's destinations has (`except`: the one being changed). Keys are
 * sealed, so only those on the same server are opened to compare. */
async function refuseDuplicates(
  context: ChannelsContext,
  userId: string,
  candidate: { name: string; rtmpUrl?: string; key?: string },
  except?: string,
): Promise<void> {
  const others = (await context.channels.list(userId)).filter((channel) => channel.id !== except);
  if (others.some((other) => sameName(other.name, candidate.name))) throw new AppError('duplicate destination', { fields: { name: 'duplicate' } });
  if (candidate.rtmpUrl === undefined || candidate.key === undefined) return;
  for (const other of others.filter((channel) => channel.rtmpUrl === candidate.rtmpUrl && channel.sealedKey)) {
    if ((await context.secrets.open(other.sealedKey!, sealContext(other))) === candidate.key)
      throw new AppError('duplicate destination', { fields: { key: 'duplicate' } });
  }
}

/** The platform a destination is for: the creator's pick, else the one its server URL belongs to. An rtmp:// server
 * for a platform that takes RTMPS only is refused. */
function platformOf(rtmpUrl: string, picked: DestinationPresetId | undefined): DestinationPresetId {
  const preset = picked ?? presetOfUrl(rtmpUrl);
  assertProtocolFits(preset, rtmpUrl);
  return preset;
}

export async function addRtmpChannel(
  context: ChannelsContext,
  userId: string,
  input: { name: string; url: string; key: string; preset?: DestinationPresetId },
): Promise<Channel> {
  const key = cleanKey(input.key);
  const name = cleanName(input.name);
  const rtmpUrl = normalizeRtmpUrl(input.url);
  const preset = platformOf(rtmpUrl, input.preset);
  await context.destinations.check(rtmpUrl);
  await refuseDuplicates(context, userId, { name, rtmpUrl, key });
  const id = randomUUID();
  const channel: Channel = {
    id,
    userId,
    kind: 'rtmp',
    name,
    preset,
    rtmpUrl,
    sealedKey: await context.secrets.seal(key, { userId, channelId: id }),
    keyHint: keyHintOf(key),
    createdAt: context.now().toISOString(),
  };
  await context.channels.create(channel);
  return channel;
}

/**
 * Renames a destination, or (RTMP ones) changes its platform, server URL or stream key. A new address cannot reach a
 * stream that is running (its task has the old one): those streams must be stopped first. A YouTube destination's
 * address comes from YouTube; only its name can change.
 */
export async function updateChannel(
  context: ChannelsContext,
  userId: string,
  channelId: string,
  input: { name?: string; url?: string; key?: string; preset?: DestinationPresetId },
): Promise<Channel> {
  const channel = await context.channels.get(userId, channelId);
  if (!channel) throw new AppError('not found');
  const newAddress = input.url !== undefined || input.key !== undefined;
  const changed = input.url !== undefined ? 'url' : input.key !== undefined ? 'key' : input.preset !== undefined ? 'preset' : undefined;
  if (changed && channel.kind !== 'rtmp')
    throw new AppError('invalid request', { fields: { [changed]: 'a YouTube destination gets its address from YouTube' } });
  const name = input.name !== undefined ? cleanName(input.name) : channel.name;
  const rtmpUrl = input.url !== undefined ? normalizeRtmpUrl(input.url) : channel.rtmpUrl;
  const key = input.key !== undefined ? cleanKey(input.key) : undefined;
  // The picked platform stays with a new server URL (a regional server of the same platform); one never picked is
  // read from the URL again.
  const preset = input.url !== undefined || input.preset !== undefined ? platformOf(rtmpUrl!, input.preset ?? channel.preset) : channel.preset;
  if (input.url !== undefined) await context.destinations.check(rtmpUrl!);
  if (newAddress) {
    const streams = (await context.streams.list(userId)).filter((stream) => stream.channelIds.includes(channelId));
    if (streams.some((stream) => runningStatuses.includes(stream.status))) throw new AppError('stream started');
  }
  const currentKey = newAddress && key === undefined && channel.sealedKey ? await context.secrets.open(channel.sealedKey, sealContext(channel)) : undefined;
  await refuseDuplicates(context, userId, { name, ...(newAddress ? { rtmpUrl, key: key ?? currentKey } : {}) }, channelId);
  const updated: Channel = {
    ...channel,
    name,
    ...(preset !== undefined ? { preset } : {}),
    ...(rtmpUrl !== undefined ? { rtmpUrl } : {}),
    ...(key !== undefined ? { sealedKey: await context.secrets.seal(key, sealContext(channel)), keyHint: keyHintOf(key) } : {}),
  };
  await context.channels.update(updated);
  return updated;
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

// Keeps a YouTube broadcast live for every YouTube destination of a running stream: one reusable liveStream per
// connected channel (made at connect time; its ingestion address and key are what the stream task publishes to),
// and per run a fresh broadcast bound to it, auto start on, auto stop off. YouTube's quota (10,000 units a day per
// project) is why health comes from ffmpeg and broadcasts are only checked every half hour.
import type { Channel } from '../channels/channel';
import { AppError, type ErrorKey } from '../errors';
import type { SecretBox } from '../secret-box';
import type { BroadcastKeeper, ChannelStore } from '../streams/ports';
import type { Stream } from '../streams/stream';
import { YouTubeError, type GoogleOAuth, type YouTubeAccount } from './ports';

/** The broadcast of one YouTube destination of a stream. */
export interface BroadcastRecord {
  userId: string;
  streamId: string;
  channelId: string;
  broadcastId: string;
  createdAt: string;
  checkedAt: string;
}

export interface BroadcastStore {
  list(userId: string, streamId: string): Promise<BroadcastRecord[]>;
  put(record: BroadcastRecord): Promise<void>;
  remove(userId: string, streamId: string, channelId: string): Promise<void>;
}

export interface BroadcastsContext {
  /** Google, or undefined when it is not configured on this server (read lazily: a secret in AWS). */
  oauth: () => Promise<GoogleOAuth | undefined>;
  channels: ChannelStore;
  records: BroadcastStore;
  secrets: SecretBox;
  /** The thumbnail for a stream's broadcasts: its custom one, else its video's. */
  thumbnail(stream: Stream): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

/** Broadcasts are checked this often while a stream is live (one quota unit per check). */
export const CHECK_INTERVAL_MS = 30 * 60_000;

export const youtubeSealContext = (channel: Pick<Channel, 'userId' | 'id'>) => ({
  userId: channel.userId,
  channelId: channel.id,
  purpose: 'youtube-refresh-token',
});

/** A YouTube failure as the catalogued error a user sees: `otherwise` is what failed (starting the stream's
 * broadcasts, or keeping a live stream's broadcast up to date), for anything but the two the user must fix. */
function youtubeFailure(error: unknown, otherwise: Extract<ErrorKey, 'starting stream failed' | 'updating stream failed'>): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof YouTubeError) {
    const key: ErrorKey =
      error.failure === 'revoked' ? 'Google refresh token error' : error.failure === 'live streaming not enabled' ? 'livestreaming not enabled' : otherwise;
    return new AppError(key);
  }
  return new AppError(otherwise);
}

/** Starting a stream: its broadcasts could not be made ('Failed to start YouTube stream...'). */
export const startFailure = (error: unknown): AppError => youtubeFailure(error, 'starting stream failed');

/** A live stream: a fresh broadcast (after YouTube ended one, or at a scheduled restart) could not be made; the loop
 * goes on to every destination ('Failed to update stream settings...' as the stream's warning). */
export const liveUpdateFailure = (error: unknown): AppError => youtubeFailure(error, 'updating stream failed');

export class YouTubeBroadcasts implements BroadcastKeeper {
  constructor(private readonly context: BroadcastsContext) {}

  private async youtubeChannels(stream: Stream): Promise<Channel[]> {
    const channels = await Promise.all(stream.channelIds.map((id) => this.context.channels.get(stream.userId, id)));
    return channels.filter((channel): channel is Channel => channel?.kind === 'youtube' && channel.youtube !== undefined);
  }

  private async account(channel: Channel): Promise<YouTubeAccount> {
    const oauth = await this.context.oauth();
    if (!oauth) throw new AppError('youtube not configured');
    if (channel.youtube!.status === 'revoked') throw new AppError('Google refresh token error');
    return oauth.account(await this.context.secrets.open(channel.youtube!.sealedRefreshToken, youtubeSealContext(channel)));
  }

  /** The user removed the app's access: the channel shows as disconnected until connected again. */
  private async markRevoked(channel: Channel): Promise<void> {
    await this.context.channels.update({ ...channel, youtube: { ...channel.youtube!, status: 'revoked' } });
  }

  /** A new broadcast with the stream's details, bound to the channel's liveStream, with its thumbnail (a refused
   * thumbnail is reported as a warning: it must not keep the stream off air). */
  private async newBroadcast(account: YouTubeAccount, channel: Channel, stream: Stream): Promise<{ broadcastId: string; warning?: ErrorKey }> {
    const broadcastId = await account.createBroadcast({
      title: stream.title.slice(0, 100),
      description: stream.description?.slice(0, 5000) ?? '',
      privacy: stream.privacy ?? 'public',
      scheduledStart: this.context.now(),
    });
    await account.bind(broadcastId, channel.youtube!.liveStreamId);
    const thumbnail = await this.context.thumbnail(stream);
    if (thumbnail) {
      try {
        await account.setThumbnail(broadcastId, thumbnail);
      } catch (error) {
        this.context.log('thumbnail not saved', { streamId: stream.id, channelId: channel.id, failure: (error as YouTubeError).failure ?? 'other' });
        return { broadcastId, warning: 'thumbnail save failed' };
      }
    }
    return { broadcastId };
  }

  private async record(stream: Stream, channel: Channel, broadcastId: string): Promise<void> {
    const now = this.context.now().toISOString();
    await this.context.records.put({ userId: stream.userId, streamId: stream.id, channelId: channel.id, broadcastId, createdAt: now, checkedAt: now });
  }

  async prepare(stream: Stream): Promise<string | undefined> {
    let warning: string | undefined;
    for (const channel of await this.youtubeChannels(stream)) {
      try {
        const account = await this.account(channel);
        const made = await this.newBroadcast(account, channel, stream);
        await this.record(stream, channel, made.broadcastId);
        warning ??= made.warning;
      } catch (error) {
        if (error instanceof YouTubeError && error.failure === 'revoked') await this.markRevoked(channel);
        throw startFailure(error);
      }
    }
    return warning;
  }

  async rotate(stream: Stream): Promise<void> {
    const records = new Map((await this.context.records.list(stream.userId, stream.id)).map((r) => [r.channelId, r]));
    for (const channel of await this.youtubeChannels(stream)) {
      try {
        const account = await this.account(channel);
        const fresh = await this.newBroadcast(account, channel, stream);
        const old = records.get(channel.id);
        await this.record(stream, channel, fresh.broadcastId);
        if (old) await account.complete(old.broadcastId).catch(() => undefined); // it may have ended already
      } catch (error) {
        if (error instanceof YouTubeError && error.failure === 'revoked') await this.markRevoked(channel);
        this.context.log('broadcast rotation failed', { streamId: stream.id, channelId: channel.id, error: liveUpdateFailure(error).key });
      }
    }
  }

  async check(stream: Stream): Promise<string | undefined> {
    let warning: string | undefined;
    const records = new Map((await this.context.records.list(stream.userId, stream.id)).map((r) => [r.channelId, r]));
    for (const channel of await this.youtubeChannels(stream)) {
      const record = records.get(channel.id);
      if (record && this.context.now().getTime() - new Date(record.checkedAt).getTime() < CHECK_INTERVAL_MS) continue;
      try {
        const account = await this.account(channel);
        const state = record ? await account.broadcastState(record.broadcastId) : 'missing';
        if (state === 'complete' || state === 'revoked' || state === 'missing') {
          // YouTube ended the broadcast while the loop runs (or it was never made): a new one takes over.
          await this.record(stream, channel, (await this.newBroadcast(account, channel, stream)).broadcastId);
        } else {
          await this.context.records.put({ ...record!, checkedAt: this.context.now().toISOString() });
        }
      } catch (error) {
        if (error instanceof YouTubeError && error.failure === 'revoked') await this.markRevoked(channel);
        // The loop keeps publishing to every destination; the user is told what to do.
        warning = liveUpdateFailure(error).key;
      }
    }
    return warning;
  }

  async end(stream: Stream): Promise<void> {
    const records = await this.context.records.list(stream.userId, stream.id);
    for (const record of records) {
      try {
        const channel = await this.context.channels.get(stream.userId, record.channelId);
        if (channel?.youtube) await (await this.account(channel)).complete(record.broadcastId);
      } catch (error) {
        this.context.log('broadcast not completed', { streamId: stream.id, channelId: record.channelId, error: startFailure(error).key });
      }
      await this.context.records.remove(stream.userId, stream.id, record.channelId);
    }
  }
}

// What the API answers about destinations (GET /channels and the channel routes), built by
// lambdas/core/channels/channel.ts and read by the web app. Types only.
import type { DestinationPresetId } from '../destination-presets';

export type ChannelKind = 'rtmp' | 'youtube';

export interface ChannelView {
  id: string;
  kind: ChannelKind;
  name: string;
  /** Its platform (lambdas/contract/destination-presets.ts). */
  preset: DestinationPresetId;
  rtmpUrl?: string;
  keyHint?: string;
  /** revoked: the user removed Loopcast's access in their Google account; they must connect again. */
  youtube?: { channelId: string; avatarUrl?: string; status: 'connected' | 'revoked' };
  createdAt: string;
}

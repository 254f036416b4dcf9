// A creator ready to stream: signed in, with a transcoded video and a destination on the stack's own RTMP server.
import { api, signedInUser, type StackAccess } from './accounts';
import { makeClip, uploadWithTus, waitForItem } from './media';

export interface Creator {
  token: string;
  userId: string;
  email: string;
  videoId: string;
  channelId: string;
  /** The stream key on the local RTMP server. */
  key: string;
}

export async function creatorWithDestination(stack: StackAccess, label: string, clipSeconds = 4): Promise<Creator> {
  const user = await signedInUser(stack, label);
  // Full HD, as most creators' videos are: it streams at 1080p30 (smaller sources are not scaled up).
  const clip = await makeClip({ seconds: clipSeconds, size: '1920x1080' });
  const videoId = await uploadWithTus(stack, user.token, clip.bytes, { filename: `${label}.mp4`, filetype: 'video/mp4', kind: 'video' });
  await waitForItem(stack, user.token, videoId);
  const key = `${label}-${user.userId.slice(0, 8)}`;
  const channel = await api(stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Local test server', url: stack.urls.rtmp, key } });
  if (channel.status !== 201) throw new Error(`the destination was refused: ${JSON.stringify(channel.body)}`);
  return { ...user, videoId, channelId: channel.body.id, key };
}

/** A stream of the creator's video to their destination. */
export async function createStream(stack: StackAccess, who: Creator, overrides: Record<string, unknown> = {}) {
  return api(stack, 'POST', '/streams', { token: who.token, body: { title: 'Lo-fi loop', videoId: who.videoId, channelIds: [who.channelId], ...overrides } });
}

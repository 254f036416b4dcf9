// Every key shape of the single table (lambdas/contract/tables.ts), in one place so entities never collide.
//   pk                     sk                  what
//   USER#<userId>          PROFILE             the account
//   EMAIL#<email>          EMAIL               claim on an address (uniqueness), points to the user
//   SESSION#<tokenHash>    SESSION             a signed-in browser; gsi1: SESSIONS#<userId> / createdAt
//   TOKEN#<tokenHash>      <purpose>           a single-use e-mail link (confirm, reset, email-change, close);
//                                              gsi1: TOKENS#<userId> / purpose
//   RATE#<name>#<subject>  <window start>      attempts counted in one rate-limit window
//   CONN#<connectionId>    CONN                an open realtime WebSocket; gsi1: CONNS#<userId> / connectionId
//   USER#<userId>          SUBSCRIPTION        the mirrored paid subscription
//   USER#<userId>          BILLING             the payment provider's customer; gsi1: CUSTOMER#<customerId> / USER
//   USER#<userId>          PAYMENT#<invoiceId> a payment received
//   USER#<userId>          USAGE               storage, running streams, uploads this cycle
//   USER#<userId>          STAGED#<uploadId>   an unfinished upload's declared length, counted against storage
//                                              until it ends (expires with the upload)
//   BILLING_EVENT#<id>     EVENT               a provider webhook event already applied (expires after 60 days)
//   USER#<userId>          VIDEO#<videoId>     a media library item (video or audio)
//   USER#<userId>          STREAM#<streamId>   a stream
//   USER#<userId>          STREAM#<streamId>#LIVE  its running run's lease and latest health (written by the
//                                              lifecycle and the task API only; gone when the run ends)
//   USER#<userId>          STREAMLOG#<streamId>#<at>#<n>  an event of a stream's history (expires after 90 days)
//   USER#<userId>          NOTIFY              how the user wants to be told (e-mail, a linked Telegram chat)
//   TELEGRAM_LINK#<hash>   LINK                a Telegram deep link being followed (expires after 10 minutes);
//                                              gsi1: TELEGRAM_LINKS#<userId> / LINK
//   USER#<userId>          CHANNEL#<channelId> a destination (RTMP stream key or YouTube channel)
//   USER#<userId>          BROADCAST#<streamId>#<channelId>  the YouTube broadcast of a running stream
//   OAUTH_STATE#<hash>     STATE               a Google consent in progress (expires after 10 minutes);
//                                              gsi1: OAUTH_STATES#<userId> / STATE
//   TUS#<upload key>       METADATA | LOCK     a tus upload's metadata cache and lock (lambdas/adapters/tus/);
//                                              the metadata's gsi1: UPLOADS#<userId> / upload key
//   YOUTUBE_QUOTA#<day>    QUOTA               YouTube API units spent that Pacific-time day

import { indexFamilies as index, itemFamilies as item } from '../../contract/table-access';

/** The partition of everything a user owns (profile, media, streams, destinations, ...). */
export const userPartition = (userId: string) => `${item.user}${userId}`;
export const userKey = (userId: string) => ({ pk: userPartition(userId), sk: 'PROFILE' });
export const emailKey = (email: string) => ({ pk: `${item.email}${email}`, sk: 'EMAIL' });
export const sessionKey = (tokenHash: string) => ({ pk: `${item.session}${tokenHash}`, sk: 'SESSION' });
export const sessionsOfUser = (userId: string) => `${index.sessionsOfUser}${userId}`;
export const emailTokenKey = (tokenHash: string, purpose: string) => ({ pk: `${item.emailToken}${tokenHash}`, sk: purpose });
export const emailTokensOfUser = (userId: string) => `${index.emailTokensOfUser}${userId}`;
export const rateKey = (key: string, windowStart: number) => ({ pk: `${item.rate}${key}`, sk: String(windowStart) });
export const connectionKey = (connectionId: string) => ({ pk: `${item.connection}${connectionId}`, sk: 'CONN' });
export const connectionsOfUser = (userId: string) => `${index.connectionsOfUser}${userId}`;
export const subscriptionKey = (userId: string) => ({ pk: userPartition(userId), sk: 'SUBSCRIPTION' });
export const billingAccountKey = (userId: string) => ({ pk: userPartition(userId), sk: 'BILLING' });
export const customerIndexKey = (customerId: string) => `${index.customer}${customerId}`;
export const paymentKey = (userId: string, invoiceId: string) => ({ pk: userPartition(userId), sk: `PAYMENT#${invoiceId}` });
export const usageKey = (userId: string) => ({ pk: userPartition(userId), sk: 'USAGE' });
export const stagedUploadKey = (userId: string, uploadId: string) => ({ pk: userPartition(userId), sk: `STAGED#${uploadId}` });
export const billingEventKey = (eventId: string) => ({ pk: `${item.billingEvent}${eventId}`, sk: 'EVENT' });
export const noticeKey = (userId: string, notice: string) => ({ pk: userPartition(userId), sk: `NOTICE#${notice}` });
export const videoKey = (userId: string, videoId: string) => ({ pk: userPartition(userId), sk: `VIDEO#${videoId}` });
export const streamKey = (userId: string, streamId: string) => ({ pk: userPartition(userId), sk: `STREAM#${streamId}` });
export const streamLiveKey = (userId: string, streamId: string) => ({ pk: userPartition(userId), sk: `STREAM#${streamId}#LIVE` });
export const streamLogPrefix = (streamId: string) => `STREAMLOG#${streamId}#`;
export const notifySettingsKey = (userId: string) => ({ pk: userPartition(userId), sk: 'NOTIFY' });
export const telegramLinkKey = (tokenHash: string) => ({ pk: `${item.telegramLink}${tokenHash}`, sk: 'LINK' });
export const telegramLinksOfUser = (userId: string) => `${index.telegramLinksOfUser}${userId}`;
export const channelKey = (userId: string, channelId: string) => ({ pk: userPartition(userId), sk: `CHANNEL#${channelId}` });

export const broadcastKey = (userId: string, streamId: string, channelId: string) => ({ pk: userPartition(userId), sk: `BROADCAST#${streamId}#${channelId}` });
export const oauthStateKey = (stateHash: string) => ({ pk: `${item.oauthState}${stateHash}`, sk: 'STATE' });
export const oauthStatesOfUser = (userId: string) => `${index.oauthStatesOfUser}${userId}`;
export const uploadsOfUser = (userId: string) => `${index.uploadsOfUser}${userId}`;
/** The index partition of the streams that run (set while a stream runs, removed when it stops). */
export const runningStreamsIndexKey = index.runningStreams;
export const tusItemKey = (uploadKey: string, kind: 'METADATA' | 'LOCK') => ({ pk: `${item.tus}${uploadKey}`, sk: kind });
export const youtubeQuotaKey = (day: string) => ({ pk: `${item.youtubeQuota}${day}`, sk: 'QUOTA' });

// Support audit log (lambdas/core/support): outside the account's partition, so it outlives termination.
//   AUDIT#<userId>         <at>#<entryId>      a support action on an account; gsi1: AUDIT_EMAIL#<e-mail hash> / <at>
export const auditKey = (userId: string, at: string, entryId: string) => ({ pk: `${item.audit}${userId}`, sk: `${at}#${entryId}` });
export const auditTrailOf = (userId: string) => `${item.audit}${userId}`;
export const auditByEmailHash = (emailHash: string) => `${index.auditByEmail}${emailHash}`;

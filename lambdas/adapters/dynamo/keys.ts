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

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' });
export const sessionKey = (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });
export const sessionsOfUser = (userId: string) => `SESSIONS#${userId}`;
export const emailTokenKey = (tokenHash: string, purpose: string) => ({ pk: `TOKEN#${tokenHash}`, sk: purpose });
export const emailTokensOfUser = (userId: string) => `TOKENS#${userId}`;
export const rateKey = (key: string, windowStart: number) => ({ pk: `RATE#${key}`, sk: String(windowStart) });
export const connectionKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' });
export const connectionsOfUser = (userId: string) => `CONNS#${userId}`;
export const subscriptionKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'SUBSCRIPTION' });
export const billingAccountKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'BILLING' });
export const customerIndexKey = (customerId: string) => `CUSTOMER#${customerId}`;
export const paymentKey = (userId: string, invoiceId: string) => ({ pk: `USER#${userId}`, sk: `PAYMENT#${invoiceId}` });
export const usageKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USAGE' });
export const billingEventKey = (eventId: string) => ({ pk: `BILLING_EVENT#${eventId}`, sk: 'EVENT' });
export const noticeKey = (userId: string, notice: string) => ({ pk: `USER#${userId}`, sk: `NOTICE#${notice}` });
export const videoKey = (userId: string, videoId: string) => ({ pk: `USER#${userId}`, sk: `VIDEO#${videoId}` });
export const streamKey = (userId: string, streamId: string) => ({ pk: `USER#${userId}`, sk: `STREAM#${streamId}` });
export const streamLiveKey = (userId: string, streamId: string) => ({ pk: `USER#${userId}`, sk: `STREAM#${streamId}#LIVE` });
export const streamLogPrefix = (streamId: string) => `STREAMLOG#${streamId}#`;
export const notifySettingsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'NOTIFY' });
export const telegramLinkKey = (tokenHash: string) => ({ pk: `TELEGRAM_LINK#${tokenHash}`, sk: 'LINK' });
export const telegramLinksOfUser = (userId: string) => `TELEGRAM_LINKS#${userId}`;
export const channelKey = (userId: string, channelId: string) => ({ pk: `USER#${userId}`, sk: `CHANNEL#${channelId}` });

export const broadcastKey = (userId: string, streamId: string, channelId: string) => ({ pk: `USER#${userId}`, sk: `BROADCAST#${streamId}#${channelId}` });
export const oauthStateKey = (stateHash: string) => ({ pk: `OAUTH_STATE#${stateHash}`, sk: 'STATE' });
export const oauthStatesOfUser = (userId: string) => `OAUTH_STATES#${userId}`;
export const uploadsOfUser = (userId: string) => `UPLOADS#${userId}`;
export const youtubeQuotaKey = (day: string) => ({ pk: `YOUTUBE_QUOTA#${day}`, sk: 'QUOTA' });

// Support audit log (lambdas/core/support): outside the account's partition, so it outlives termination.
//   AUDIT#<userId>         <at>#<entryId>      a support action on an account; gsi1: AUDIT_EMAIL#<e-mail hash> / <at>
export const auditKey = (userId: string, at: string, entryId: string) => ({ pk: `AUDIT#${userId}`, sk: `${at}#${entryId}` });
export const auditTrailOf = (userId: string) => `AUDIT#${userId}`;
export const auditByEmailHash = (emailHash: string) => `AUDIT_EMAIL#${emailHash}`;

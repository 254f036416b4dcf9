// The account's data as one JSON document (issue 17, item 4; the privacy policy: "a copy in a portable format"):
// everything Loopcast holds about the user, as the API shows it. Left out: stored secrets (stream keys and Google
// tokens, sealed; the export says they exist), storage keys, and the media files themselves (the user's own
// uploads, transcoded: the export lists them). Pure orchestration over the stores.
import type { PublicUser } from '../../contract/api/account';
import type { ChannelView } from '../../contract/api/channels';
import type { VideoView } from '../../contract/api/videos';
import type { BillingStore } from '../billing/ports';
import { channelView } from '../channels/channel';
import type { VideoStore } from '../media/ports';
import { videoView } from '../media/videos';
import type { NotificationSettingsStore } from '../notifications/notifications';
import { HISTORY_RETENTION_DAYS, type StreamEvent, type StreamHistory } from '../streams/history';
import type { ChannelStore, StreamStore } from '../streams/ports';
import type { AuditLog } from '../support/ports';
import { publicUser, type AccountsContext } from './accounts';
import { enforce } from './rate-limits';
import { activeUser, type Caller } from './settings';

export interface ExportContext {
  accounts: AccountsContext;
  videos: Pick<VideoStore, 'list'>;
  channels: Pick<ChannelStore, 'list'>;
  streams: Pick<StreamStore, 'list'>;
  billing: Pick<BillingStore, 'subscription' | 'payments' | 'customerOf'>;
  audit: Pick<AuditLog, 'ofUser'>;
  notifications: Pick<NotificationSettingsStore, 'get'>;
  history: Pick<StreamHistory, 'list'>;
}

/** The document's shape; `format` changes when its meaning does. */
export interface AccountExport {
  format: 'loopcast-account-export/1';
  exportedAt: string;
  account: PublicUser & { termsAcceptedAt: string; confirmedAt?: string };
  sessions: { createdAt: string; lastUsedAt?: string; expiresAt: string; userAgent: string; ip: string }[];
  subscription?: {
    plan: string;
    period?: string;
    status: string;
    currentPeriodStart: string;
    currentPeriodEnd: string;
    cancelAtPeriodEnd: boolean;
    paymentCustomer?: string;
    providerSubscription?: string;
  };
  payments: { invoice: string; amountCents: number; currency: string; paidAt: string; plan?: string }[];
  media: VideoView[];
  destinations: (ChannelView & { storedSecret: 'stream key' | 'stream key and Google access' })[];
  streams: {
    id: string;
    title: string;
    description?: string;
    videoId?: string;
    audioId?: string;
    channelIds: string[];
    restartTimes: string[];
    timeZone: string;
    privacy?: string;
    hasCustomThumbnail: boolean;
    status: string;
    startedAt?: string;
    restarts: number;
    createdAt: string;
    updatedAt: string;
    /** What happened to it, kept 90 days (lambdas/core/streams/history.ts), oldest first. */
    history: StreamEvent[];
  }[];
  notifications: { email: boolean; telegram?: { chatId: string; linkedAt: string } };
  /** What the operator did to the account (suspension, reactivation), without who. */
  supportActions: { action: string; at: string; reason?: string; outcome: string }[];
}

export async function exportAccount(context: ExportContext, caller: Caller): Promise<AccountExport> {
  const { accounts } = context;
  const user = await activeUser(accounts, caller.userId);
  await enforce(accounts.rateLimiter, [['exportPerUser', user.id]], accounts.now());
  const [sessions, subscription, payments, customer, videos, channels, streams, audit, notifications] = await Promise.all([
    accounts.store.sessionsOf(user.id),
    context.billing.subscription(user.id),
    context.billing.payments(user.id),
    context.billing.customerOf(user.id),
    context.videos.list(user.id),
    context.channels.list(user.id),
    context.streams.list(user.id),
    context.audit.ofUser(user.id),
    context.notifications.get(user.id),
  ]);
  const historySince = new Date(accounts.now().getTime() - HISTORY_RETENTION_DAYS * 24 * 3600 * 1000);
  const histories = await Promise.all(streams.map((stream) => context.history.list(user.id, stream.id, historySince)));
  return {
    format: 'loopcast-account-export/1',
    exportedAt: accounts.now().toISOString(),
    account: { ...publicUser(user), termsAcceptedAt: user.termsAcceptedAt, ...(user.confirmedAt ? { confirmedAt: user.confirmedAt } : {}) },
    sessions: sessions.map((session) => ({
      createdAt: session.createdAt,
      ...(session.lastUsedAt ? { lastUsedAt: session.lastUsedAt } : {}),
      expiresAt: new Date(session.expiresAt * 1000).toISOString(),
      userAgent: session.userAgent,
      ip: session.ip,
    })),
    ...(subscription
      ? {
          subscription: {
            plan: subscription.plan,
            ...(subscription.period ? { period: subscription.period } : {}),
            status: subscription.status,
            currentPeriodStart: subscription.currentPeriodStart,
            currentPeriodEnd: subscription.currentPeriodEnd,
            cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
            ...(customer ? { paymentCustomer: customer } : {}),
            ...(subscription.providerSubscriptionId ? { providerSubscription: subscription.providerSubscriptionId } : {}),
          },
        }
      : {}),
    payments: payments.map((payment) => ({
      invoice: payment.id,
      amountCents: payment.amountCents,
      currency: payment.currency,
      paidAt: payment.paidAt,
      ...(payment.plan ? { plan: payment.plan } : {}),
    })),
    media: videos.map(videoView),
    destinations: channels.map((channel) => ({ ...channelView(channel), storedSecret: channel.youtube ? 'stream key and Google access' : 'stream key' })),
    streams: streams.map((stream, index) => ({
      id: stream.id,
      title: stream.title,
      ...(stream.description ? { description: stream.description } : {}),
      ...(stream.videoId ? { videoId: stream.videoId } : {}),
      ...(stream.audioId ? { audioId: stream.audioId } : {}),
      channelIds: stream.channelIds,
      restartTimes: stream.restartTimes,
      timeZone: stream.timeZone,
      ...(stream.privacy ? { privacy: stream.privacy } : {}),
      hasCustomThumbnail: stream.thumbnailKey !== undefined,
      status: stream.status,
      ...(stream.startedAt ? { startedAt: stream.startedAt } : {}),
      restarts: stream.restarts,
      createdAt: stream.createdAt,
      updatedAt: stream.updatedAt,
      history: histories[index] ?? [],
    })),
    notifications,
    supportActions: audit.map((entry) => ({ action: entry.action, at: entry.at, ...(entry.reason ? { reason: entry.reason } : {}), outcome: entry.outcome })),
  };
}

// The plan's limits against what is used, one row per limit (docs/plans.md), for the meters.
import type { SubscriptionOverview } from '@loopcast/contract/api/billing';
import type { DestinationUsage } from './api/billing-api';

export type LimitId = 'storage' | 'streams' | 'uploads' | 'destinations' | 'youtubeAccounts';

export interface UsageRow {
  id: LimitId;
  /** Undefined while it is being counted. */
  used: number | undefined;
  limit: number;
}

export function usageRows(subscription: Pick<SubscriptionOverview, 'usage' | 'limits'>, destinations: DestinationUsage | undefined): UsageRow[] {
  const { usage, limits } = subscription;
  return [
    { id: 'storage', used: usage.storageBytes, limit: limits.storageBytes },
    { id: 'streams', used: usage.runningStreams, limit: limits.concurrentStreams },
    { id: 'uploads', used: usage.uploadsThisCycle, limit: limits.uploadsPerCycle },
    { id: 'destinations', used: destinations?.mostDestinationsPerStream, limit: limits.destinationsPerStream },
    { id: 'youtubeAccounts', used: usage.youtubeChannels, limit: limits.youtubeChannels },
  ];
}

/**
 * What a meter says, and its colour. Using a plan to its size is normal: 1 of 1 streams running or 1 of 1
 * destinations is 'ok', never an alarm. Storage and uploads are used up by new files, so from 80 % they are
 * 'near' and at the limit 'full' (amber: new uploads will be refused). Only more than the plan allows (after a
 * smaller plan, say) is 'over', the one red state.
 */
export type UsageLevel = 'ok' | 'near' | 'full' | 'over';

const usedUpByUploads: ReadonlySet<LimitId> = new Set(['storage', 'uploads']);

export function usageLevel(id: LimitId, used: number, limit: number): UsageLevel {
  if (used > limit) return 'over';
  if (!usedUpByUploads.has(id)) return 'ok';
  if (used >= limit) return 'full';
  return used / limit >= 0.8 ? 'near' : 'ok';
}

/** What is left for new uploads, and why one would be refused now as the API would say it (lambdas/core/media/library.ts authorizeUpload). */
export interface UploadAllowance {
  refusal?: 'no active subscription' | 'no valid payment' | 'video upload limit' | 'storage limit';
  uploadsLeft: number;
  storageBytesLeft: number;
}

export function uploadAllowance(subscription: Pick<SubscriptionOverview, 'active' | 'blockedBy' | 'usage' | 'limits'>): UploadAllowance {
  const uploadsLeft = Math.max(0, subscription.limits.uploadsPerCycle - subscription.usage.uploadsThisCycle);
  const storageBytesLeft = Math.max(0, subscription.limits.storageBytes - subscription.usage.storageBytes);
  const refusal = !subscription.active
    ? (subscription.blockedBy ?? 'no active subscription')
    : uploadsLeft === 0
      ? 'video upload limit'
      : storageBytesLeft === 0
        ? 'storage limit'
        : undefined;
  return { ...(refusal ? { refusal } : {}), uploadsLeft, storageBytesLeft };
}

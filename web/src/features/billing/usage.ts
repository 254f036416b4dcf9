// The plan's limits against what is used, one row per limit (docs/plans.md), for the meters.
import type { SubscriptionOverview } from '../../../../lambdas/core/billing/billing';
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

/** 'full' at the limit, 'high' from 80 %: the meters' colours. */
export function usageLevel(used: number, limit: number): 'ok' | 'high' | 'full' {
  if (limit <= 0 || used >= limit) return 'full';
  return used / limit >= 0.8 ? 'high' : 'ok';
}

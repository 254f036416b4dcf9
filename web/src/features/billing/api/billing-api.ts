// Plans and billing (docs/api.md, "Plans and billing"): the user's subscription and usage, the plan offers, and the
// hand-offs to Stripe (Checkout, Customer Portal), which are full-page redirects.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { SubscriptionOverview } from '@loopcast/contract/api/billing';
import type { BillingPeriod, FeatureAvailability, FeatureKey, PlanId, PlanLimits } from '@loopcast/core/plans';
import { api } from '../../../api/client';
import { queryKeys, streamsQuery, subscriptionQuery } from '../../../api/queries';

export type { SubscriptionOverview };

export interface PlanPrice {
  period: BillingPeriod;
  months: number;
  cents: number;
  savingCents: number;
}

export interface PlanOffer {
  id: PlanId;
  selfServe: boolean;
  limits: PlanLimits;
  features: Record<FeatureKey, FeatureAvailability>;
  prices: PlanPrice[];
}

export interface PlansAnswer {
  currency: string;
  plans: PlanOffer[];
}

export type CheckoutState = { status: 'open' | 'complete' | 'expired'; paid: boolean };

/** The key realtime's `subscription.changed` refreshes (features/realtime/cache-updates.ts). */
export const subscriptionQueryKey = queryKeys.subscription;

/** GET /subscription; `refetchInterval` polls while realtime is down. */
export const useSubscription = (refetchInterval: number | false = false) =>
  useQuery({
    ...subscriptionQuery,
    refetchInterval,
  });

export const usePlans = () =>
  useQuery({ queryKey: ['plans'], queryFn: ({ signal }) => api.get<PlansAnswer>('/plans', undefined, signal), staleTime: 5 * 60_000 });

/** What the subscription overview does not count: the destinations of the busiest stream. */
export interface DestinationUsage {
  mostDestinationsPerStream: number;
}

/** Counted from the entry the Streams page shares (['streams']: the API's answer). */
export function useDestinationUsage(): DestinationUsage | undefined {
  const streams = useQuery({
    ...streamsQuery,
    select: (answer) => Math.max(0, ...answer.streams.map((stream) => stream.channelIds.length)),
  });
  if (streams.data === undefined) return undefined;
  return { mostDestinationsPerStream: streams.data };
}

/** The result of a Stripe Checkout the user came back from (`?checkout=<session id>`). */
export const useCheckoutState = (sessionId: string | null) =>
  useQuery({
    queryKey: ['billing', 'checkout', sessionId],
    queryFn: ({ signal }) => api.get<CheckoutState>(`/billing/checkout/${encodeURIComponent(sessionId ?? '')}`, undefined, signal),
    enabled: sessionId !== null,
    retry: false,
  });

const openExternal = ({ url }: { url: string }) => window.location.assign(url);

/** Checkout for a plan and period; a paying user is answered with the Customer Portal instead. */
export const useCheckout = () =>
  useMutation({
    mutationFn: (choice: { plan: PlanId; period: BillingPeriod }) => api.post<{ url: string; kind: 'checkout' | 'portal' }>('/billing/checkout', choice),
    onSuccess: openExternal,
  });

export const usePortal = () => useMutation({ mutationFn: () => api.post<{ url: string }>('/billing/portal'), onSuccess: openExternal });

/** The catalogue key of a failed call, for `errorText`. */

// The subscription plans, defined once: limits enforced by the API, prices charged through Stripe, and what the
// pricing pages show (web/), all read from here. Values and their reasoning: docs/plans.md.
import { outputProfileIds, type OutputProfileId } from './media-spec';

export const billingPeriods = ['month', '3months', '6months', 'year'] as const;
export type BillingPeriod = (typeof billingPeriods)[number];

/** Months in each billing period, and the discount for paying that far ahead (a visible saving). */
export const periodTerms: Record<BillingPeriod, { months: number; discountPercent: number }> = {
  month: { months: 1, discountPercent: 0 },
  '3months': { months: 3, discountPercent: 10 },
  '6months': { months: 6, discountPercent: 15 },
  year: { months: 12, discountPercent: 25 },
};

/** Spec section 3's feature labels. */
export const featureKeys = [
  'multistreaming',
  'youtubeIntegration',
  'streamByKey',
  'noWatermark',
  'loop247',
  'fullHd',
  'resumableUpload',
  'transcoding',
  'optimisation',
  'scheduledStart',
  'autoRestart',
  'splitAudioVideo',
  'multiplatform',
] as const;
export type FeatureKey = (typeof featureKeys)[number];

/** `soon`: announced, not built yet (the spec's scheduled start and 5+ platforms were, until issue 16 built them). */
export type FeatureAvailability = 'included' | 'soon' | 'not included';

export interface PlanLimits {
  /** Bytes of stored media (sources kept until transcoded, stream-ready files, thumbnails). */
  storageBytes: number;
  /** Streams running (pending, encoding or started) at the same time. */
  concurrentStreams: number;
  /** New uploads per billing cycle (the trial counts as one cycle). */
  uploadsPerCycle: number;
  /** Destinations (RTMP targets or YouTube channels) one stream may go to at once. */
  destinationsPerStream: number;
  /** Connected YouTube accounts. */
  youtubeChannels: number;
  /** The longest video (or audio) an upload may be, in seconds: a stream-ready hour is about 2.8 GB whatever the
   * source weighs, and every hour costs transcoding minutes. */
  maxMediaSeconds: number;
  /** The output profiles (lambdas/core/media-spec.ts, the ladder) a video may be transcoded to. */
  outputProfiles: readonly OutputProfileId[];
  /** Videos one stream's playlist may hold (each is downloaded to the stream task's disk). */
  playlistItems: number;
}

export const planIds = ['trial', 'basic', 'pro', 'custom'] as const;
export type PlanId = (typeof planIds)[number];

export interface Plan {
  id: PlanId;
  /** USD cents per month before any period discount; undefined: free (trial) or priced by agreement (custom). */
  monthlyPriceCents?: number;
  /** Sold through Stripe checkout (Basic, Pro); the trial needs no card, Custom goes through support. */
  selfServe: boolean;
  limits: PlanLimits;
  features: Record<FeatureKey, FeatureAvailability>;
}

const GB = 1024 ** 3;
const HOUR = 3600;

/** Full HD at 30 fps and below on every plan; 60 fps, 1440p and 4K on Pro and Custom (docs/plans.md). */
const fullHdProfiles: readonly OutputProfileId[] = ['720p30', '1080p30'];
const everyProfile: readonly OutputProfileId[] = outputProfileIds;

export const TRIAL_DAYS = 3;

const everyPlanHas: Record<FeatureKey, FeatureAvailability> = {
  multistreaming: 'not included',
  youtubeIntegration: 'included',
  streamByKey: 'included',
  noWatermark: 'included',
  loop247: 'included',
  fullHd: 'included',
  resumableUpload: 'included',
  transcoding: 'included',
  optimisation: 'included',
  scheduledStart: 'included',
  autoRestart: 'included',
  splitAudioVideo: 'included',
  multiplatform: 'included',
};

export const plans: Record<PlanId, Plan> = {
  trial: {
    id: 'trial',
    selfServe: false,
    limits: {
      storageBytes: 5 * GB,
      concurrentStreams: 1,
      uploadsPerCycle: 5,
      destinationsPerStream: 1,
      youtubeChannels: 1,
      maxMediaSeconds: 1 * HOUR,
      outputProfiles: fullHdProfiles,
      playlistItems: 5,
    },
    features: everyPlanHas,
  },
  basic: {
    id: 'basic',
    monthlyPriceCents: 899,
    selfServe: true,
    limits: {
      storageBytes: 50 * GB,
      concurrentStreams: 1,
      uploadsPerCycle: 30,
      destinationsPerStream: 1,
      youtubeChannels: 1,
      maxMediaSeconds: 4 * HOUR,
      outputProfiles: fullHdProfiles,
      playlistItems: 20,
    },
    features: everyPlanHas,
  },
  pro: {
    id: 'pro',
    monthlyPriceCents: 2499,
    selfServe: true,
    limits: {
      storageBytes: 250 * GB,
      concurrentStreams: 5,
      uploadsPerCycle: 150,
      destinationsPerStream: 5,
      youtubeChannels: 5,
      maxMediaSeconds: 12 * HOUR,
      outputProfiles: everyProfile,
      playlistItems: 100,
    },
    features: { ...everyPlanHas, multistreaming: 'included' },
  },
  custom: {
    id: 'custom',
    selfServe: false,
    limits: {
      storageBytes: 2048 * GB,
      concurrentStreams: 50,
      uploadsPerCycle: 2000,
      destinationsPerStream: 10,
      youtubeChannels: 50,
      maxMediaSeconds: 24 * HOUR,
      outputProfiles: everyProfile,
      playlistItems: 500,
    },
    features: { ...everyPlanHas, multistreaming: 'included' },
  },
};

export const isPlanId = (value: unknown): value is PlanId => typeof value === 'string' && (planIds as readonly string[]).includes(value);
export const isBillingPeriod = (value: unknown): value is BillingPeriod => typeof value === 'string' && (billingPeriods as readonly string[]).includes(value);

/** What one billing period of a plan costs in USD cents, after its discount (rounded to the cent). */
export function periodPriceCents(plan: Plan, period: BillingPeriod): number | undefined {
  if (plan.monthlyPriceCents === undefined) return undefined;
  const { months, discountPercent } = periodTerms[period];
  return Math.round((plan.monthlyPriceCents * months * (100 - discountPercent)) / 100);
}

/** Cents saved against paying monthly for the same months. */
export function periodSavingCents(plan: Plan, period: BillingPeriod): number {
  const price = periodPriceCents(plan, period);
  if (price === undefined || plan.monthlyPriceCents === undefined) return 0;
  return plan.monthlyPriceCents * periodTerms[period].months - price;
}

/** The Stripe Price lookup key checkout uses for a plan and period (docs/deploy.md lists them). */
export const stripeLookupKey = (plan: PlanId, period: BillingPeriod): string => `loopcast_${plan}_${period}`;

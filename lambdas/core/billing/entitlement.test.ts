import { plans } from '../plans';
import { entitlementOf, streamsMustStop, type Subscription } from './entitlement';

const confirmed = { createdAt: '2026-11-01T09:00:00.000Z', confirmedAt: '2026-11-01T10:00:00.000Z' };
const at = (iso: string) => new Date(iso);

const paid = (overrides: Partial<Subscription> = {}): Subscription => ({
  userId: 'u1',
  plan: 'pro',
  period: 'month',
  status: 'active',
  currentPeriodStart: '2026-11-05T00:00:00.000Z',
  currentPeriodEnd: '2026-12-05T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  ...overrides,
});

describe('entitlement', () => {
  test('the free trial runs 3 days from confirmation, then asks for a subscription', () => {
    const during = entitlementOf(confirmed, undefined, at('2026-11-04T09:59:59Z'));
    expect(during).toMatchObject({ plan: 'trial', state: 'trial', active: true, cycleEnd: '2026-11-04T10:00:00.000Z', limits: plans.trial.limits });
    const after = entitlementOf(confirmed, undefined, at('2026-11-04T10:00:00Z'));
    expect(after).toMatchObject({ state: 'expired', active: false, blockedBy: 'no active subscription' });
    expect(streamsMustStop(after, at('2026-11-04T10:00:00Z'))).toBe(true);
  });

  test('a paid plan is active until its period ends, also when canceled at period end', () => {
    expect(entitlementOf(confirmed, paid(), at('2026-11-20T00:00:00Z'))).toMatchObject({ plan: 'pro', state: 'active', active: true, period: 'month' });
    const canceling = entitlementOf(confirmed, paid({ cancelAtPeriodEnd: true }), at('2026-12-04T23:59:59Z'));
    expect(canceling).toMatchObject({ state: 'canceling', active: true });
    const ended = entitlementOf(confirmed, paid({ cancelAtPeriodEnd: true }), at('2026-12-05T00:00:00Z'));
    expect(ended).toMatchObject({ state: 'expired', active: false, blockedBy: 'no active subscription' });
  });

  test('a renewal not reported yet keeps a paid plan active for 24 hours past its period end, then it expires', () => {
    const late = entitlementOf(confirmed, paid(), at('2026-12-05T23:59:59Z'));
    expect(late).toMatchObject({ state: 'active', active: true });
    expect(streamsMustStop(late, at('2026-12-05T23:59:59Z'))).toBe(false);
    const never = entitlementOf(confirmed, paid(), at('2026-12-06T00:00:00Z'));
    expect(never).toMatchObject({ state: 'expired', active: false, blockedBy: 'no active subscription' });
    expect(streamsMustStop(never, at('2026-12-06T00:00:00Z'))).toBe(true);
  });

  test('a failed payment blocks new work at once and running streams after 24 hours', () => {
    const failed = paid({ status: 'past_due', paymentFailedAt: '2026-12-05T01:00:00.000Z' });
    const entitlement = entitlementOf(confirmed, failed, at('2026-12-05T02:00:00Z'));
    expect(entitlement).toMatchObject({ state: 'payment-failed', active: false, blockedBy: 'no valid payment', graceEndsAt: '2026-12-06T01:00:00.000Z' });
    expect(streamsMustStop(entitlement, at('2026-12-06T00:59:59Z'))).toBe(false);
    expect(streamsMustStop(entitlement, at('2026-12-06T01:00:00Z'))).toBe(true);
  });

  test('a canceled subscription does not bring the trial back', () => {
    const entitlement = entitlementOf(confirmed, paid({ status: 'canceled' }), at('2026-11-02T00:00:00Z'));
    expect(entitlement).toMatchObject({ state: 'expired', active: false });
  });

  test('Custom plans carry negotiated limits over the defaults', () => {
    const custom = paid({ plan: 'custom', customLimits: { concurrentStreams: 120 } });
    const limits = entitlementOf(confirmed, custom, at('2026-11-20T00:00:00Z')).limits;
    expect(limits.concurrentStreams).toBe(120);
    expect(limits.storageBytes).toBe(plans.custom.limits.storageBytes);
  });
});

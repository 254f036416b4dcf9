// The dashboard's metric math, evaluated here as JavaScript (its IF, CEIL, FLOOR and arithmetic mean the same)
// against the cost model it stands for.
import { BYTES_PER_GB, DEFAULT_FLEET_STREAMS, HOURS_PER_MONTH, WIRE_OVERHEAD } from './assumptions';
import { awsEgressUsdExpression, dashboardCostEstimate, hostsUsdSteps, type MathStep } from './dashboard';
import { egressUsd, gbPerDestinationMonth, hostFleetFor, streamMonthCost } from './model';

/** Runs the steps in order over the inputs; returns every step's value. */
function evaluate(steps: MathStep[], inputs: Record<string, number>): Record<string, number> {
  const values: Record<string, number> = { ...inputs };
  for (const { id, expression } of steps) {
    // What CloudWatch accepts: ids, numbers, the four operators, comparisons, IF, CEIL, FLOOR, FILL.
    expect(expression).toMatch(/^[\w\s.+\-*/<>(),]+$/);
    expect(expression.length).toBeLessThanOrEqual(1024);
    const names = Object.keys(values);
    const fn = new Function(...names, 'IF', 'CEIL', 'FLOOR', 'FILL', `return ${expression};`) as (...args: unknown[]) => number;
    values[id] = fn(...names.map((name) => values[name]), (c: boolean, a: number, b: number) => (c ? a : b), Math.ceil, Math.floor, (v: number, d: number) => v ?? d);
  }
  return values;
}

test("AWS's egress tiers as metric math cost what the model says", () => {
  const steps = [{ id: 'usd', expression: awsEgressUsdExpression('gb') }];
  for (const gb of [0, 50, 100, 101, 9_999, 10_000, 10_001, 49_000, 50_000, 120_000, 150_000, 400_000]) {
    expect([gb, evaluate(steps, { gb }).usd]).toEqual([gb, expect.closeTo(egressUsd(gb), 6)]);
  }
});

test("the external hosts as metric math cost what the model's cheaper offer and packing cost", () => {
  const steps = hostsUsdSteps('gb', 'usd');
  for (const videoMbps of [6]) {
    for (const streams of [1, 9, 10, 11, 25, 43, 44, 60, 122, 123, 124, 200, 1000]) {
      // A hair below the exact multiple, as real egress is: CEIL and FLOOR then agree with whole loops.
      const gb = streams * gbPerDestinationMonth(videoMbps) * (1 - 1e-9);
      expect([streams, evaluate(steps, { gb }).usd]).toEqual([streams, expect.closeTo(hostFleetFor('auto', streams, videoMbps).usdPerMonth, 4)]);
    }
  }
});

describe('the estimated cost per stream-month', () => {
  /** An hour of the egress metric (media bytes, no wire overhead) for streams at 6 Mbit/s. */
  const bytes = (streams: number) => (streams * gbPerDestinationMonth(6) * BYTES_PER_GB * (1 - 1e-9)) / WIRE_OVERHEAD / HOURS_PER_MONTH;
  const model = (plane: 'fargate' | 'external', streams: number) => streamMonthCost({ plane, videoMbps: 6, streams }).totalUsd;

  test('Fargate: the model at any fleet size', () => {
    const { steps } = dashboardCostEstimate('fargate');
    for (const streams of [1, 25, 200]) expect(evaluate(steps, { bytes: bytes(streams), streams }).cost).toBeCloseTo(model('fargate', streams), 4);
  });

  test("external: the model at its default fleet; elsewhere within cents (the AWS tiers of the hosts' downloads)", () => {
    const { steps } = dashboardCostEstimate('external');
    expect(evaluate(steps, { bytes: bytes(DEFAULT_FLEET_STREAMS), streams: DEFAULT_FLEET_STREAMS }).cost).toBeCloseTo(model('external', DEFAULT_FLEET_STREAMS), 4);
    for (const streams of [1, 200]) expect(Math.abs(evaluate(steps, { bytes: bytes(streams), streams }).cost! - model('external', streams))).toBeLessThan(0.5);
  });

  test('no streams: 0, not a division by zero; the egress GB on the wire from the bytes', () => {
    const values = evaluate(dashboardCostEstimate('fargate').steps, { bytes: 1e9, streams: 0 });
    expect(values.cost).toBe(0);
    expect(values.egressGb).toBeCloseTo(1.06, 9);
  });
});

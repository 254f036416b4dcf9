// The dashboard's metric math, evaluated here as JavaScript (its IF, CEIL, FLOOR and arithmetic mean the same)
// against the cost model it stands for.
import { BYTES_PER_GB, DEFAULT_FLEET_STREAMS, HOURS_PER_MONTH, WIRE_OVERHEAD, hostOffers } from './assumptions';
import { awsEgressUsdExpression, dashboardCostEstimate, hostsUsdSteps, mathNumber, type MathStep } from './dashboard';
import { egressUsd, gbPerDestinationMonth, hostCapacity, hostFleetFor, streamMonthCost } from './model';

/** Runs the steps in order over the inputs; returns every step's value. */
function evaluate(steps: MathStep[], inputs: Record<string, number>): Record<string, number> {
  const values: Record<string, number> = { ...inputs };
  for (const { id, expression } of steps) {
    // What CloudWatch accepts: ids, numbers, the four operators, comparisons, IF, CEIL, FLOOR, FILL.
    expect(expression).toMatch(/^[\w\s.+\-*/<>(),]+$/);
    expect(expression.length).toBeLessThanOrEqual(1024);
    const names = Object.keys(values);
    // Every word is a known id or function, as CloudWatch checks: "1.06e-9" reads as 1.06, the unknown id e, minus 9.
    const words = expression.match(/\d+(?:\.\d+)?|[A-Za-z_]\w*/g) ?? [];
    const unknown = words.filter((word) => /^[A-Za-z_]/.test(word) && !names.includes(word) && !['IF', 'CEIL', 'FLOOR', 'FILL'].includes(word));
    expect([id, unknown]).toEqual([id, []]);
    const fn = new Function(...names, 'IF', 'CEIL', 'FLOOR', 'FILL', `return ${expression};`) as (...args: unknown[]) => number;
    values[id] = fn(
      ...names.map((name) => values[name]),
      (c: boolean, a: number, b: number) => (c ? a : b),
      Math.ceil,
      Math.floor,
      (v: number, d: number) => v ?? d,
    );
  }
  return values;
}

test('numbers are plain decimals: metric math reads no exponent notation', () => {
  expect(mathNumber(1.06e-9)).toBe('0.00000000106');
  expect(mathNumber(2.5e-7)).toBe('0.00000025');
  expect(mathNumber(3e21)).toBe('3000000000000000000000');
  expect(mathNumber(21990.23255552)).toBe('21990.2325555');
  expect(mathNumber(0.1 + 0.2)).toBe('0.3');
  expect(mathNumber(150_000)).toBe('150000');
  expect(mathNumber(-0)).toBe('0');
  expect(() => mathNumber(Infinity)).toThrow(RangeError);
  expect(() => mathNumber(NaN)).toThrow(RangeError);
  for (const plane of ['fargate', 'external'] as const) {
    for (const { id, expression } of dashboardCostEstimate(plane).steps)
      expect([plane, id, expression]).toEqual([plane, id, expect.not.stringMatching(/\d[eE][+-]?\d/)]);
  }
  // The wire overhead per byte is 1.06e-9 in JavaScript: the step `cdk synth` warned about (unknown identifier e).
  expect(dashboardCostEstimate('fargate').steps[0]).toEqual({ id: 'egressGb', expression: 'FILL(bytes, 0) * 0.00000000106' });
});

test("AWS's egress tiers as metric math cost what the model says", () => {
  const steps = [{ id: 'usd', expression: awsEgressUsdExpression('gb') }];
  for (const gb of [0, 50, 100, 101, 9_999, 10_000, 10_001, 49_000, 50_000, 120_000, 150_000, 400_000]) {
    expect([gb, evaluate(steps, { gb }).usd]).toEqual([gb, expect.closeTo(egressUsd(gb), 6)]);
  }
});

test("the external hosts as metric math cost what the model's cheaper offer and packing cost", () => {
  const steps = hostsUsdSteps('gb', 'usd');
  for (const videoMbps of [6]) {
    // Around each packing's boundary: a cloud server's included traffic (10) and memory (37), a dedicated server's link (123).
    const cloudMost = hostCapacity(hostOffers['cloud-20tb'], videoMbps).most;
    for (const streams of [1, 9, 10, 11, 25, cloudMost, cloudMost + 1, 60, 122, 123, 124, 200, 1000]) {
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
    expect(evaluate(steps, { bytes: bytes(DEFAULT_FLEET_STREAMS), streams: DEFAULT_FLEET_STREAMS }).cost).toBeCloseTo(
      model('external', DEFAULT_FLEET_STREAMS),
      4,
    );
    for (const streams of [1, 200]) expect(Math.abs(evaluate(steps, { bytes: bytes(streams), streams }).cost! - model('external', streams))).toBeLessThan(0.5);
  });

  test('no streams: 0, not a division by zero; the egress GB on the wire from the bytes', () => {
    const values = evaluate(dashboardCostEstimate('fargate').steps, { bytes: 1e9, streams: 0 });
    expect(values.cost).toBe(0);
    expect(values.egressGb).toBeCloseTo(1.06, 9);
  });
});

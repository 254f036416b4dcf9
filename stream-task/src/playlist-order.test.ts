import { passOrder, seededRandom } from './playlist-order';

describe("a pass's order", () => {
  test('in order: as listed, every pass', () => {
    expect(passOrder(4, false, seededRandom(1))).toEqual([0, 1, 2, 3]);
    expect(passOrder(4, false, seededRandom(1), [3, 2, 1, 0])).toEqual([0, 1, 2, 3]);
  });

  test('shuffled: every item once per pass, a fresh order each pass', () => {
    const random = seededRandom(7);
    const orders = Array.from({ length: 20 }, () => passOrder(6, true, random));
    for (const order of orders) expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(orders.map((order) => order.join())).size).toBeGreaterThan(10);
  });

  test('shuffled: a pass never starts with the item the previous pass ended with, nor repeats its order', () => {
    const random = seededRandom(3);
    let previous: number[] | undefined;
    for (let pass = 0; pass < 500; pass += 1) {
      const order = passOrder(3, true, random, previous);
      if (previous) {
        expect(order[0]).not.toBe(previous.at(-1));
        expect(order).not.toEqual(previous);
      }
      previous = order;
    }
  });

  test('shuffled, two items: never one twice in a row, which leaves the same order every pass', () => {
    const random = seededRandom(5);
    let previous = passOrder(2, true, random);
    for (let pass = 0; pass < 20; pass += 1) {
      const order = passOrder(2, true, random, previous);
      expect(order).toEqual(previous);
      previous = order;
    }
  });

  test('shuffled: all orders come up about equally often (Fisher-Yates, not a biased sort)', () => {
    const random = seededRandom(11);
    const counts = new Map<string, number>();
    for (let i = 0; i < 6000; i += 1) {
      const key = passOrder(3, true, random).join();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  test('one item: itself', () => {
    expect(passOrder(1, true, seededRandom(1), [0])).toEqual([0]);
  });

  test('the seeded generator repeats itself for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});

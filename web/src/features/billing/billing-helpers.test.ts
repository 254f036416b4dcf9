import { plans } from '../../../../lambdas/core/plans';
import { formatDate, formatMoney } from './format';
import { usageLevel, usageRows } from './usage';

test('one usage row per plan limit, the destinations counted once the streams are known', () => {
  const subscription = { usage: { storageBytes: 1024, runningStreams: 1, uploadsThisCycle: 4, youtubeChannels: 2 }, limits: plans.pro.limits };
  expect(usageRows(subscription, undefined)).toEqual([
    { id: 'storage', used: 1024, limit: plans.pro.limits.storageBytes },
    { id: 'streams', used: 1, limit: 5 },
    { id: 'uploads', used: 4, limit: 150 },
    { id: 'destinations', used: undefined, limit: 5 },
    { id: 'youtubeAccounts', used: 2, limit: 5 },
  ]);
  expect(usageRows(subscription, { mostDestinationsPerStream: 3 }).slice(3)).toEqual([
    { id: 'destinations', used: 3, limit: 5 },
    { id: 'youtubeAccounts', used: 2, limit: 5 },
  ]);
});

test.each([
  [0, 5, 'ok'],
  [3, 5, 'ok'],
  [4, 5, 'high'],
  [5, 5, 'full'],
  [6, 5, 'full'],
  [0, 0, 'full'],
])('%p of %p is %p', (used, limit, level) => {
  expect(usageLevel(used, limit)).toBe(level);
});

test('money and dates in the page language', () => {
  expect(formatMoney(2499, 'usd', 'en')).toBe('$24.99');
  expect(formatMoney(2499, 'usd', 'es').replace(/\s/g, ' ')).toBe('24,99 US$');
  expect(formatDate('2026-11-25T10:00:00.000Z', 'en')).toBe('November 25, 2026');
});

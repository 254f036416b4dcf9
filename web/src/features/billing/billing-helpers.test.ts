import { plans } from '@loopcast/core/plans';
import { formatDate, formatMoney } from './format';
import { uploadAllowance, usageLevel, usageRows } from './usage';

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
  ['storage', 0, 5, 'ok'],
  ['uploads', 3, 5, 'ok'],
  ['uploads', 4, 5, 'near'],
  ['storage', 5, 5, 'full'],
  ['uploads', 6, 5, 'over'],
  // Using a plan to its size is normal, not an alarm: 1 of 1 streams running, 1 of 1 destinations.
  ['streams', 1, 1, 'ok'],
  ['destinations', 1, 1, 'ok'],
  ['youtubeAccounts', 5, 5, 'ok'],
  ['destinations', 2, 1, 'over'],
] as const)('%s: %p of %p is %p', (id, used, limit, level) => {
  expect(usageLevel(id, used, limit)).toBe(level);
});

test('what is left for uploads, and the first reason the API would give to refuse one', () => {
  const trial = { active: true, usage: { storageBytes: 1024 ** 3, runningStreams: 0, uploadsThisCycle: 2, youtubeChannels: 0 }, limits: plans.trial.limits };
  expect(uploadAllowance(trial)).toEqual({ uploadsLeft: 3, storageBytesLeft: 4 * 1024 ** 3 });
  expect(uploadAllowance({ ...trial, usage: { ...trial.usage, uploadsThisCycle: 5 } })).toMatchObject({ refusal: 'video upload limit', uploadsLeft: 0 });
  expect(uploadAllowance({ ...trial, usage: { ...trial.usage, storageBytes: 6 * 1024 ** 3 } })).toEqual({
    refusal: 'storage limit',
    uploadsLeft: 3,
    storageBytesLeft: 0,
  });
  expect(uploadAllowance({ ...trial, active: false, blockedBy: 'no valid payment' }).refusal).toBe('no valid payment');
  expect(uploadAllowance({ ...trial, active: false }).refusal).toBe('no active subscription');
});

test('money and dates in the page language', () => {
  expect(formatMoney(2499, 'usd', 'en')).toBe('$24.99');
  expect(formatMoney(2499, 'usd', 'es').replace(/\s/g, ' ')).toBe('24,99 US$');
  expect(formatDate('2026-11-25T10:00:00.000Z', 'en')).toBe('November 25, 2026');
});

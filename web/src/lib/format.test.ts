import { formatBytes } from './format';

test('sizes from kilobytes up, in binary steps, in the page language', () => {
  expect(formatBytes(0, 'en')).toBe('0 kB');
  expect(formatBytes(2.4 * 1024 ** 2, 'en')).toBe('2.4 MB');
  expect(formatBytes(5 * 1024 ** 3, 'ru')).toBe('5 ГБ');
  expect(formatBytes(12.3 * 1024 ** 4, 'es')).toBe('12 TB');
});

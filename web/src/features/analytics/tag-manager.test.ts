/** @jest-environment jsdom */
// Security audit L10, in the app: page views reach the tag manager only after the visitor accepted cookies.
import { CONSENT_KEY } from '../../lib/consent-storage';
import { reportPageView } from './tag-manager';

const view = { name: 'streams', path: '/app/streams', title: 'Streams' };
const tagManagerScripts = () => [...document.querySelectorAll('script')].filter((script) => script.src.startsWith('https://www.googletagmanager.com/'));

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
  delete (window as { dataLayer?: unknown }).dataLayer;
});

test('without consent nothing loads and nothing is sent', () => {
  expect(reportPageView('GTM-TEST', view)).toBe(false);
  expect(tagManagerScripts()).toEqual([]);
  expect((window as { dataLayer?: unknown }).dataLayer).toBeUndefined();
});

test('after consent the tag manager loads once and every page view is reported', () => {
  localStorage.setItem(CONSENT_KEY, 'accepted');
  expect(reportPageView('GTM-TEST', view)).toBe(true);
  expect(reportPageView('GTM-TEST', { ...view, name: 'videos', path: '/app/videos' })).toBe(true);
  expect(tagManagerScripts()).toHaveLength(1);
  expect(
    (window as { dataLayer?: { event: string; page_name?: string }[] }).dataLayer
      ?.filter((entry) => entry.event === 'page_view')
      .map((entry) => entry.page_name),
  ).toEqual(['streams', 'videos']);
});

test('without a configured id nothing loads, even after consent', () => {
  localStorage.setItem(CONSENT_KEY, 'accepted');
  expect(reportPageView(undefined, view)).toBe(false);
  expect(tagManagerScripts()).toEqual([]);
});

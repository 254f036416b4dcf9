/** @jest-environment jsdom */
// Security audit L10: the public pages loaded the tag manager before the visitor accepted cookies, against our own
// privacy policy. It now loads only after Accept, or at once for a visitor who accepted before.
import { CONSENT_KEY } from '../lib/consent-storage';
import { enhancePublicPage, type PublicPageOptions } from './public-page-behaviour';

const options: PublicPageOptions = { consentKey: CONSENT_KEY, localeCookie: 'i18n_redirected', localeCookieMaxAge: 60, tagManagerId: 'GTM-TEST' };
const tagManagerScripts = () => [...document.querySelectorAll('script')].filter((script) => script.src.startsWith('https://www.googletagmanager.com/'));

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
  document.body.innerHTML = '<section id="cookie-banner" hidden><button>Accept</button></section>';
  delete (window as { dataLayer?: unknown }).dataLayer;
});

test('before consent nothing of the tag manager loads and nothing is sent; Accept loads it and reports the page', () => {
  enhancePublicPage(options);
  expect(document.getElementById('cookie-banner')!.hidden).toBe(false);
  expect(tagManagerScripts()).toEqual([]);
  expect((window as { dataLayer?: unknown }).dataLayer).toBeUndefined();

  document.querySelector('button')!.click();
  expect(localStorage.getItem(CONSENT_KEY)).toBe('accepted');
  expect(tagManagerScripts().map((script) => script.src)).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST']);
  expect((window as { dataLayer?: { event: string }[] }).dataLayer?.map((entry) => entry.event)).toEqual(['gtm.js', 'page_view']);
});

test('a visitor who accepted before gets it at once, without the banner', () => {
  localStorage.setItem(CONSENT_KEY, 'accepted');
  enhancePublicPage(options);
  expect(document.getElementById('cookie-banner')!.hidden).toBe(true);
  expect(tagManagerScripts()).toHaveLength(1);
});

test('without a configured id nothing loads, even after consent', () => {
  enhancePublicPage({ ...options, tagManagerId: null });
  document.querySelector('button')!.click();
  expect(tagManagerScripts()).toEqual([]);
});

// Public pages are static HTML, not hydrated (docs/decisions.md, "Public site": React and React Router alone weigh
// 116 kB gzip, nearly the whole 120 kB budget). This one inline script gives them their few behaviours: the cookie
// banner (shown until Accept, remembered in localStorage), the language switcher (saves the i18n_redirected cookie,
// then opens the chosen language) and, when a tag manager id is configured, the page view. The function is
// serialised with toString(), so it must use nothing from outside its own body except its options.
import { CONSENT_KEY } from '../features/consent/consent-storage';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from '../i18n/locale-cookie';

interface PublicPageOptions {
  consentKey: string;
  localeCookie: string;
  localeCookieMaxAge: number;
  tagManagerId: string | null;
}

function enhancePublicPage(options: PublicPageOptions): void {
  const banner = document.getElementById('cookie-banner');
  if (banner) {
    let accepted = false;
    try {
      accepted = window.localStorage.getItem(options.consentKey) === 'accepted';
    } catch {
      accepted = false;
    }
    banner.hidden = accepted;
    banner.querySelector('button')?.addEventListener('click', () => {
      try {
        window.localStorage.setItem(options.consentKey, 'accepted');
      } catch {
        // storage blocked: the banner closes for this page view only
      }
      banner.hidden = true;
    });
  }
  document.querySelectorAll<HTMLSelectElement>('select[data-language-switcher]').forEach((select) => {
    select.addEventListener('change', () => {
      const option = select.selectedOptions[0];
      document.cookie = `${options.localeCookie}=${select.value}; Max-Age=${options.localeCookieMaxAge}; Path=/; SameSite=Lax`;
      if (option?.dataset.href) window.location.assign(option.dataset.href);
    });
  });
  if (options.tagManagerId) {
    const layer = ((window as unknown as { dataLayer?: object[] }).dataLayer ??= []);
    layer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const page = document.querySelector<HTMLMetaElement>('meta[name="loopcast-page"]')?.content ?? window.location.pathname;
    layer.push({ event: 'page_view', page_name: page, page_path: window.location.pathname + window.location.search, page_title: document.title });
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(options.tagManagerId)}`;
    document.head.append(script);
  }
}

const options: PublicPageOptions = {
  consentKey: CONSENT_KEY,
  localeCookie: LOCALE_COOKIE,
  localeCookieMaxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
  tagManagerId: (import.meta.env.VITE_GTM_ID as string | undefined) || null,
};

export const publicPageScript = `(${enhancePublicPage.toString()})(${JSON.stringify(options)});`;

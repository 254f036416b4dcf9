// Public pages are static HTML, not hydrated (docs/decisions.md, "Public site": React and React Router alone weigh
// 116 kB gzip, nearly the whole 120 kB budget). This one inline script gives them their few behaviours: the cookie
// banner (shown until Accept, remembered in localStorage), the language switcher (saves the i18n_redirected cookie,
// then opens the chosen language) and, when a tag manager id is configured, the page view: only once the visitor
// has accepted cookies, at once if they did before, else when they press Accept (the privacy policy's promise;
// security audit L10). The function is serialised with toString(), so it must use nothing from outside its own
// body except its options.
export interface PublicPageOptions {
  consentKey: string;
  localeCookie: string;
  localeCookieMaxAge: number;
  tagManagerId: string | null;
}

export function enhancePublicPage(options: PublicPageOptions): void {
  const startAnalytics = () => {
    if (!options.tagManagerId || document.getElementById('gtm-script')) return;
    const layer = ((window as unknown as { dataLayer?: object[] }).dataLayer ??= []);
    layer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const page = document.querySelector<HTMLMetaElement>('meta[name="loopcast-page"]')?.content ?? window.location.pathname;
    layer.push({ event: 'page_view', page_name: page, page_path: window.location.pathname + window.location.search, page_title: document.title });
    const script = document.createElement('script');
    script.id = 'gtm-script';
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(options.tagManagerId)}`;
    document.head.append(script);
  };
  let accepted = false;
  try {
    accepted = window.localStorage.getItem(options.consentKey) === 'accepted';
  } catch {
    accepted = false;
  }
  if (accepted) startAnalytics();
  const banner = document.getElementById('cookie-banner');
  if (banner) {
    banner.hidden = accepted;
    banner.querySelector('button')?.addEventListener('click', () => {
      try {
        window.localStorage.setItem(options.consentKey, 'accepted');
      } catch {
        // storage blocked: the banner closes for this page view only
      }
      banner.hidden = true;
      startAnalytics();
    });
  }
  document.querySelectorAll<HTMLSelectElement>('select[data-language-switcher]').forEach((select) => {
    select.addEventListener('change', () => {
      const option = select.selectedOptions[0];
      document.cookie = `${options.localeCookie}=${select.value}; Max-Age=${options.localeCookieMaxAge}; Path=/; SameSite=Lax`;
      if (option?.dataset.href) window.location.assign(option.dataset.href);
    });
  });
}

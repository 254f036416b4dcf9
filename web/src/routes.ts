// Every page in five languages (spec section 2): English unprefixed, the others under /es, /hi, /ru, /ua. Public
// pages sit in the 'default' layout and are prerendered (app/site-map.ts); /app/* is client-rendered, guarded by
// the app root, with the app pages in the 'custom' layout. Route ids carry the language, as one module serves five.
import { layout, route, type RouteConfig } from '@react-router/dev/routes';
import { authPages } from './app/guard';
import { legalPages, translatedPages } from './app/site-map';
import { defaultLanguage, languages, localizePath } from './i18n/languages';

const pageModules: Record<(typeof translatedPages)[number], string> = {
  '/': 'app/routes/public/landing.tsx',
  '/pricing': 'app/routes/public/pricing.tsx',
  '/soon': 'app/routes/public/soon.tsx',
};
const appPages = ['dashboard', 'streams', 'channels', 'videos', 'billing', 'notifications', 'account'] as const;
const slug = (path: string) => path.replace(/^\//, '') || 'home';

export default [
  ...languages.map((language) =>
    layout('app/routes/public/public-layout.tsx', { id: `public-${language.code}` }, [
      ...translatedPages.map((page) => route(localizePath(page, language), pageModules[page], { id: `${slug(page)}-${language.code}` })),
      ...(language === defaultLanguage ? legalPages.map((page) => route(page, 'app/routes/public/legal.tsx', { id: `legal-${slug(page)}` })) : []),
    ]),
  ),
  ...languages.map((language) =>
    route(localizePath('/app', language), 'app/routes/app/app-root.tsx', { id: `app-${language.code}` }, [
      layout('app/routes/auth/auth-layout.tsx', { id: `auth-layout-${language.code}` }, [
        ...authPages.map((page) => route(`auth/${page}`, `app/routes/auth/${page}.tsx`, { id: `auth-${page}-${language.code}` })),
      ]),
      layout('app/routes/app/custom-layout.tsx', { id: `custom-${language.code}` }, [
        ...appPages.map((page) => route(page, `app/routes/app/${page}.tsx`, { id: `${page}-${language.code}` })),
        route('streams/:streamId', 'app/routes/app/stream.tsx', { id: `stream-${language.code}` }),
      ]),
      route('*', 'app/routes/not-found.tsx', { id: `app-not-found-${language.code}` }),
    ]),
  ),
  route('*', 'app/routes/not-found.tsx', { id: 'not-found' }),
] satisfies RouteConfig;

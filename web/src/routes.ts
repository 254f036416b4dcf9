import { route, type RouteConfig } from '@react-router/dev/routes';
import { languages } from './i18n/languages';

export default [
  ...languages.map((language) => route(language.prefix || '/', 'app/public/landing-page.tsx', { id: `landing-${language.code}` })),
  route('*', 'app/not-found-page.tsx'),
] satisfies RouteConfig;

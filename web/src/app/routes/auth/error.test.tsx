/** @jest-environment jsdom */
// The sign-in error page (/app/auth/error): registered in every language beside the other auth pages, it says the
// catalogued reason of `?reason=` in the page's language (never the raw text of an unknown one) and leads back to
// sign in; a sign-in link without its token lands there.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder, TextEncoder } from 'node:util';
import { I18nProvider } from '../../../i18n/i18n-context';
import { languageByCode, languages, type LanguageCode } from '../../../i18n/languages';
import type { Messages } from '../../../i18n/catalogue';
import { AUTH_COOKIE } from '../../../lib/session';
import routes from '../../../routes';

// jsdom has no TextEncoder, which React Router needs as its modules load, and jest does not read the stylesheet a
// component imports for the bundler: the modules are imported once both are taken care of.
Object.assign(globalThis, { TextEncoder, TextDecoder });
jest.unstable_mockModule('../../../features/accounts/components/auth-forms.css', () => ({}));
const { MemoryRouter, Route, Routes, useLocation } = await import('react-router');
const { default: AuthTokenPage } = await import('./auth-token');
const { default: AuthErrorPage } = await import('./error');

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../i18n/locales', `${code}.json`), 'utf8')) as Messages;
const es = catalogue('es');

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function openAt(entry: string, code: LanguageCode = 'es') {
  const prefix = code === 'en' ? '' : `/${code}`;
  // A declarative router: jsdom has no fetch Request, which a data router's navigations make.
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider language={languageByCode(code)} messages={catalogue(code)}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path={`${prefix}/app/auth/error`} element={<AuthErrorPage />} />
            <Route path={`${prefix}/app/auth/auth-token`} element={<AuthTokenPage />} />
            <Route path={`${prefix}/app/auth/login`} element={<Where />} />
            <Route path={`${prefix}/app/streams`} element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  document.cookie = `${AUTH_COOKIE}=; Max-Age=0; Path=/`;
});

test('every language has the page in the auth layout, inside the guarded /app route', () => {
  for (const language of languages) {
    const app = routes.find((route) => route.id === `app-${language.code}`);
    const authLayout = app?.children?.find((route) => route.id === `auth-layout-${language.code}`);
    expect(authLayout?.children?.find((route) => route.id === `auth-error-${language.code}`)).toMatchObject({
      path: 'auth/error',
      file: 'app/routes/auth/error.tsx',
    });
  }
});

test('a catalogued reason is said in the page language, with the way back to sign in', () => {
  openAt('/es/app/auth/error?reason=invalid+token');
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.auth.error.title);
  expect(screen.getByRole('alert').textContent).toBe(es.errors['invalid token']);
  expect(screen.getByText(es.auth.error.lead)).toBeTruthy();
  fireEvent.click(screen.getByRole('link', { name: es.auth.forgotPassword.backToLogin }));
  expect(screen.getByTestId('where').textContent).toBe('/es/app/auth/login');
});

test.each([['?reason=%3Cb%3EYour%20account%20is%20closed%3C%2Fb%3E'], ['?reason=toString'], ['']])(
  'reason %p reads as the general message, never as given',
  (query) => {
    openAt(`/es/app/auth/error${query}`);
    expect(screen.getByRole('alert').textContent).toBe(es.auth.error.unknown);
    expect(document.body.textContent).not.toContain('Your account is closed');
  },
);

test('the network failure, a client-side key, is catalogued too', () => {
  openAt('/app/auth/error?reason=network+error', 'en');
  expect(screen.getByRole('alert').textContent).toBe(catalogue('en').errors['network error']);
});

test('a visitor who is still signed in is offered the streams instead', () => {
  document.cookie = `${AUTH_COOKIE}=tok; Path=/`;
  openAt('/es/app/auth/error?reason=invalid+token');
  expect(screen.queryByText(es.auth.error.lead)).toBeNull();
  expect(screen.queryByRole('link', { name: es.auth.forgotPassword.backToLogin })).toBeNull();
  fireEvent.click(screen.getByRole('link', { name: es.auth.error.streamsLink }));
  expect(screen.getByTestId('where').textContent).toBe('/es/app/streams');
});

test('a sign-in link without its token opens the error page with the reason', async () => {
  openAt('/es/app/auth/auth-token');
  expect((await screen.findByRole('alert')).textContent).toBe(es.errors['invalid token']);
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.auth.error.title);
  expect(document.cookie).not.toContain(AUTH_COOKIE);
});

test('a sign-in link with its token still opens the streams', async () => {
  window.history.replaceState(null, '', '/es/app/auth/auth-token#token=handed-over');
  openAt('/es/app/auth/auth-token');
  expect((await screen.findByTestId('where')).textContent).toBe('/es/app/streams');
  expect(document.cookie).toContain(`${AUTH_COOKIE}=handed-over`);
  expect(window.location.hash).toBe('');
});

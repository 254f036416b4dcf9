// Accounts in Chromium against the local stack, in English and Russian: register (with the form's own checks and
// the server's answers next to the right fields) -> confirm through the outbox link -> the dashboard greets the
// user -> sign out -> the guard sends app pages to the login page and back after signing in; password reset, the
// auth-token hand-over, the sign-in error page, and the rate limit's retry hint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { languageByCode, localizePath, type LanguageCode } from '../../web/src/i18n/languages';
import type { Messages } from '../../web/src/i18n/catalogue';
import { api, mailsTo, signedInUser, strongPassword, tokenOf, uniqueEmail } from '../helpers/accounts';
import { browserTestsOnStack, recordErrors, screenshot } from '../helpers/browser';

const catalogue = (code: LanguageCode) => JSON.parse(readFileSync(join(import.meta.dirname, '../../web/src/i18n/locales', `${code}.json`), 'utf8')) as Messages;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name]));
/** A plural text of a catalogue section for `count`, as the translator picks it. */
const plural = (section: Record<string, string>, base: string, code: LanguageCode, count: number) =>
  fill(section[`${base}_${new Intl.PluralRules(languageByCode(code).htmlLang).select(count)}`] ?? '', { count });

const e2e = browserTestsOnStack();

/** A fresh browser; uncaught page errors are collected (realtime may fail here, the app must not). */
async function newPage() {
  const context = await e2e.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  return { context, page, pageErrors: recordErrors(page) };
}

const url = (path: string) => `${e2e.stack.urls.web}${path}`;

/** A confirmed user whose e-mails are in `language`. */
async function confirmedUser(language: LanguageCode) {
  const email = uniqueEmail(`user-${language}`);
  await api(e2e.stack, 'POST', '/register', {
    body: { displayName: 'Reset', email, password: strongPassword, language, acceptTerms: true, ageConfirmed: true },
  });
  const confirmed = await api<{ token: string }>(e2e.stack, 'POST', '/confirm', { body: { token: tokenOf((await mailsTo(e2e.stack, email)).at(-1)) } });
  return { email, token: confirmed.body.token };
}
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
const sessionCookie = async (context: BrowserContext) => (await context.cookies()).find((cookie) => cookie.name === 'auth_token');

describe.each(['en', 'ru'] as const)('accounts in %s', (code) => {
  const texts = catalogue(code);
  const language = languageByCode(code);
  const path = (bare: string) => localizePath(bare, language);

  test('register -> confirm by e-mail -> dashboard greets by name -> sign out -> the guard -> sign in, back where the guard sent', async () => {
    const { context, page, pageErrors } = await newPage();
    const email = uniqueEmail(`reg-${code}`);
    const name = code === 'en' ? 'Ada Lovelace' : 'Анна Каренина';

    // The form's own checks before anything is sent: each message beside its field, focus on the first.
    await page.goto(url(path('/app/auth/register')));
    await heading(page, texts.auth.register.title);
    await page.getByRole('button', { name: texts.auth.register.submit }).click();
    const nameField = page.getByLabel(texts.auth.register.displayName);
    await expect(nameField.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(nameField.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    await page.getByText(texts.auth.missing.displayName).waitFor();
    await page.getByText(texts.auth.missing.acceptTerms).waitFor();
    await page.getByText(texts.auth.missing.ageConfirmed).waitFor();

    // The password rules show before submitting; a too short password is refused beside the field.
    await nameField.fill(name);
    await page.getByLabel(texts.auth.fields.email).fill(email);
    await page.getByLabel(texts.auth.fields.password, { exact: true }).fill('short');
    await page.getByText(plural(texts.auth.passwordRules, 'length', code, 10)).waitFor();
    await page.locator('#acceptTerms').check();
    await page.locator('#ageConfirmed').check();
    await page.getByRole('button', { name: texts.auth.register.submit }).click();
    await page.getByText(texts.errors['weak password']).waitFor();
    await screenshot(page, `app-register-errors-${code}`);

    // A disposable address is the server's answer, shown beside the e-mail field.
    await page.getByLabel(texts.auth.fields.password, { exact: true }).fill(strongPassword);
    await page.getByLabel(texts.auth.fields.email).fill('someone@mailinator.com');
    await page.getByRole('button', { name: texts.auth.register.submit }).click();
    await page.getByText(texts.errors['disposable email']).waitFor();
    await expect(page.getByLabel(texts.auth.fields.email).getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel(texts.auth.fields.email).fill(email);
    await page.getByRole('button', { name: texts.auth.register.submit }).click();
    await page.getByRole('heading', { name: texts.auth.checkInbox.title }).waitFor();
    await page.getByText(fill(texts.auth.checkInbox.body, { email })).waitFor();
    await screenshot(page, `app-register-check-inbox-${code}`);

    // "Send the link again" sends a second confirmation link.
    await page.getByRole('button', { name: texts.auth.checkInbox.resend }).click();
    await page.getByText(fill(texts.auth.checkInbox.resent, { email })).waitFor();
    const mails = await mailsTo(e2e.stack, email);
    expect(mails).toHaveLength(2);
    const link = new URL(mails.at(-1)!.link);
    expect(link.pathname).toBe(path('/app/auth/confirm'));

    // The e-mailed link confirms, signs in (cookie: 30 days, path /, SameSite=Lax) and opens the dashboard.
    await page.goto(url(link.pathname + link.search));
    await page.waitForURL((at) => at.pathname === path('/app/dashboard'));
    await heading(page, fill(texts.dashboard.greeting, { name }));
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    const days = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    await page.getByText(texts.pricing.plans.trial.name, { exact: true }).first().waitFor();
    await page.locator('.account-menu__name', { hasText: name }).waitFor();
    await screenshot(page, `app-dashboard-${code}`);

    // Sign out: the session is revoked on the server and the cookie is gone.
    const token = cookie!.value;
    await page.getByRole('button', { name: texts.auth.signOut }).click();
    await page.waitForURL((at) => at.pathname === path('/app/auth/login'));
    await heading(page, texts.auth.login.title);
    expect(await sessionCookie(context)).toBeUndefined();
    expect((await api(e2e.stack, 'GET', '/me', { token })).status).toBe(401);

    // The guard sends an app page to the login page, which returns there after signing in.
    await page.goto(url(path('/app/videos')));
    await page.waitForURL((at) => at.pathname === path('/app/auth/login'));
    expect(new URL(page.url()).searchParams.get('next')).toBe(path('/app/videos'));
    await page.getByLabel(texts.auth.fields.email).fill(email);
    await page.getByLabel(texts.auth.fields.password, { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: texts.auth.login.submit, exact: true }).click();
    await page.getByText(texts.errors['invalid credentials']).waitFor();
    await expect(page.locator('.form-alert--error').evaluate((alert) => alert === document.activeElement)).resolves.toBe(true);
    await screenshot(page, `app-login-error-${code}`);
    await page.getByLabel(texts.auth.fields.password, { exact: true }).fill(strongPassword);
    await page.getByRole('button', { name: texts.auth.login.submit, exact: true }).click();
    await page.waitForURL((at) => at.pathname === path('/app/videos'));
    await heading(page, texts.app.pages.videos.title);

    // Signed in, the login page leads to the streams.
    await page.goto(url(path('/app/auth/login')));
    await page.waitForURL((at) => at.pathname === path('/app/streams'));
    expect(pageErrors).toEqual([]);
  }, 90_000);

  test('forgot password -> the e-mailed link -> a new password signs in', async () => {
    const { page, pageErrors } = await newPage();
    const user = await confirmedUser(code);
    await page.goto(url(path('/app/auth/login')));
    await page.getByRole('link', { name: texts.auth.login.forgotLink }).click();
    await heading(page, texts.auth.forgotPassword.title);
    await page.getByLabel(texts.auth.fields.email).fill(user.email);
    await page.getByRole('button', { name: texts.auth.forgotPassword.submit }).click();
    await page.getByText(fill(texts.auth.forgotPassword.sent, { email: user.email })).waitFor();
    await screenshot(page, `app-forgot-password-${code}`);

    const link = new URL((await mailsTo(e2e.stack, user.email)).at(-1)!.link);
    expect(link.pathname).toBe(path('/app/auth/reset-password'));
    await page.goto(url(link.pathname + link.search));
    await heading(page, texts.auth.resetPassword.title);
    const newPassword = 'a brand new passphrase';
    await page.getByLabel(texts.auth.fields.newPassword, { exact: true }).fill(newPassword);
    await screenshot(page, `app-reset-password-${code}`);
    await page.getByRole('button', { name: texts.auth.resetPassword.submit }).click();
    await page.waitForURL((at) => at.pathname === path('/app/streams'));
    expect((await api(e2e.stack, 'POST', '/login', { body: { email: user.email, password: newPassword } })).status).toBe(200);
    // Every other session ended with the reset.
    expect((await api(e2e.stack, 'GET', '/me', { token: user.token })).status).toBe(401);

    // The link was single-use: opening it again says so and offers a new one.
    await page.getByRole('button', { name: texts.auth.signOut }).click();
    // The login page as the creator sees it. Not a wait for the navigation: a request of the ending session may answer
    // 401 meanwhile and send the page to the same login page, and the first navigation is then reported aborted.
    await heading(page, texts.auth.login.title);
    expect(new URL(page.url()).pathname).toBe(path('/app/auth/login'));
    await page.goto(url(link.pathname + link.search));
    await page.getByLabel(texts.auth.fields.newPassword, { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: texts.auth.resetPassword.submit }).click();
    await page.getByText(texts.errors['invalid token']).waitFor();
    await page.getByRole('link', { name: texts.auth.resetPassword.requestNew }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

test('a used confirmation link explains itself and sends a new one', async () => {
  const texts = catalogue('en');
  const { page } = await newPage();
  const email = uniqueEmail('twice');
  await api(e2e.stack, 'POST', '/register', { body: { displayName: 'Twice', email, password: strongPassword, acceptTerms: true, ageConfirmed: true } });
  const token = tokenOf((await mailsTo(e2e.stack, email)).at(-1));
  expect((await api(e2e.stack, 'POST', '/confirm', { body: { token } })).status).toBe(200);
  await page.goto(url(`/app/auth/confirm?token=${encodeURIComponent(token)}`));
  await page.getByText(texts.errors['invalid token']).waitFor();
  await screenshot(page, 'app-confirm-used-link-en');
  await page.getByLabel(texts.auth.fields.email).fill(email);
  await page.getByRole('button', { name: texts.auth.confirm.resendSubmit }).click();
  await page.getByText(fill(texts.auth.checkInbox.resent, { email })).waitFor();
}, 30_000);

test('auth-token takes a session from the URL fragment, keeps it as the cookie and opens the streams', async () => {
  const { context, page } = await newPage();
  const user = await signedInUser(e2e.stack, 'handoff');
  await page.goto(url(`/es/app/auth/auth-token#token=${encodeURIComponent(user.token)}`));
  await page.waitForURL((at) => at.pathname === '/es/app/streams');
  expect(new URL(page.url()).hash).toBe('');
  expect((await sessionCookie(context))?.value).toBe(user.token);

  // Without a token, the sign-in error page says why and offers the login page.
  const texts = catalogue('en');
  const { page: other } = await newPage();
  await other.goto(url('/app/auth/auth-token'));
  await other.waitForURL((at) => at.pathname === '/app/auth/error' && at.searchParams.get('reason') === 'invalid token');
  await other.getByText(texts.errors['invalid token']).waitFor();
  await other.getByRole('link', { name: texts.auth.forgotPassword.backToLogin }).waitFor();
  await screenshot(other, 'app-auth-token-missing-en');
}, 30_000);

test.each(['en', 'es'] as const)(
  'the sign-in error page opens signed out in %s, with a way back to sign in',
  async (code) => {
    const texts = catalogue(code);
    const login = localizePath('/app/auth/login', languageByCode(code));
    const { page, pageErrors } = await newPage();
    await page.goto(url(`${localizePath('/app/auth/error', languageByCode(code))}?reason=invalid+token`));
    await heading(page, texts.auth.error.title);
    await page.getByText(texts.errors['invalid token']).waitFor();
    await page.getByRole('link', { name: texts.auth.forgotPassword.backToLogin }).click();
    await page.waitForURL((at) => at.pathname === login);
    expect(pageErrors).toEqual([]);
  },
  30_000,
);

test('too many sign-in attempts: the message says when to try again', async () => {
  const texts = catalogue('en');
  const { page } = await newPage();
  const user = await signedInUser(e2e.stack, 'limited');
  await page.goto(url('/app/auth/login'));
  await page.getByLabel(texts.auth.fields.email).fill(user.email);
  await page.getByLabel(texts.auth.fields.password, { exact: true }).fill('wrong password, again');
  const submit = page.getByRole('button', { name: texts.auth.login.submit, exact: true });
  const answers: number[] = [];
  page.on('response', (response) => void (response.url().endsWith('/api/login') && answers.push(response.status())));
  // The limit is 10 attempts per e-mail in 15 minutes (docs/accounts.md).
  while (!answers.includes(429)) {
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/login'));
    await submit.click();
    await answered;
    expect(answers.length).toBeLessThanOrEqual(11);
  }
  await page.getByText(texts.errors['too many requests']).waitFor();
  await page.getByText(/You can try again in \d+ (minutes|seconds)\./).waitFor();
  await screenshot(page, 'app-login-rate-limited-en');
}, 60_000);

// Helpers for tests that need signed-in users: register, confirm through the outbox link, sign in.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { LocalStack } from '../../local/stack';

/** What the helpers need of a local stack: its URLs and its e-mail outbox (a test stack, or `npm start` run as a
 * child process). */
export type StackAccess = Pick<LocalStack, 'urls' | 'outbox'>;

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export async function api<T = Record<string, any>>(
  stack: StackAccess,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const response = await fetch(`${stack.urls.api}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

export const strongPassword = 'correct horse battery staple';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  link: string;
}

/** Every e-mail the local stack sent to an address, oldest first. */
export async function mailsTo(stack: StackAccess, email: string): Promise<OutboxMail[]> {
  const files = (await readdir(stack.outbox).catch(() => [] as string[])).sort();
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(stack.outbox, f), 'utf8')) as OutboxMail));
  return mails.filter((m) => m.to === email.toLowerCase());
}

export const tokenOf = (mail: OutboxMail | undefined): string => {
  const token = mail && new URL(mail.link).searchParams.get('token');
  if (!token) throw new Error('no token in the e-mail link');
  return token;
};

/** A confirmed, signed-in user: what most API tests start from. */
export async function signedInUser(
  stack: StackAccess,
  label = 'user',
  options: { language?: string } = {},
): Promise<{ email: string; token: string; userId: string }> {
  const email = uniqueEmail(label);
  const registered = await api(stack, 'POST', '/register', {
    body: {
      displayName: label,
      email,
      password: strongPassword,
      acceptTerms: true,
      ageConfirmed: true,
      ...(options.language ? { language: options.language } : {}),
    },
  });
  if (registered.status !== 202) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const confirmed = await api<{ token: string; user: { id: string } }>(stack, 'POST', '/confirm', {
    body: { token: tokenOf((await mailsTo(stack, email)).at(-1)) },
  });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return { email, token: confirmed.body.token, userId: confirmed.body.user.id };
}

/** Holds the stack's clock still for the rest of the test (an afterEach lets it go): a rate limit's window is fixed on
 * the wall clock (quarter hours, whole hours: lambdas/adapters/dynamo/rate-limiter.ts), and one that began anew
 * half-way through a test that spends a budget would answer its last attempts. */
export function holdTheClock(stack: Pick<LocalStack, 'deps'>): void {
  const pinned = new Date();
  stack.deps.now = () => pinned;
}

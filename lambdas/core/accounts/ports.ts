// What the accounts domain needs from the outside world, as small interfaces (implementations in lambdas/adapters).
import type { AccountStatus } from '../../contract/api/account';
import type { LanguageCode } from '../languages';
import type { EmailMessage } from './emails';

export type { AccountStatus };

export interface User {
  id: string;
  email: string;
  displayName: string;
  language: LanguageCode;
  status: AccountStatus;
  passwordHash: string;
  createdAt: string;
  termsAcceptedAt: string;
  confirmedAt?: string;
  /** When a reset link last set the password: links issued before it no longer work. */
  passwordChangedAt?: string;
}

export interface Session {
  tokenHash: string;
  userId: string;
  createdAt: string;
  /** Epoch seconds (DynamoDB TTL). */
  expiresAt: number;
  userAgent: string;
  ip: string;
  /** When a request last used it, to the hour (session-auth.ts writes it at most once an hour). */
  lastUsedAt?: string;
}

/** confirm: a new account's address; reset: a forgotten password; email-change: a new address for an account
 * (sent to that address); close: closing the account (sent to its address). */
export type EmailTokenPurpose = 'confirm' | 'reset' | 'email-change' | 'close';

export interface EmailToken {
  tokenHash: string;
  purpose: EmailTokenPurpose;
  userId: string;
  expiresAt: number;
  /** When the link was made (ISO); links from before the last password change are refused. */
  issuedAt?: string;
  /** The address an `email-change` link moves the account to. */
  newEmail?: string;
}

export type UserChanges = Partial<Pick<User, 'status' | 'passwordHash' | 'confirmedAt' | 'displayName' | 'language' | 'passwordChangedAt'>>;

export interface AccountsStore {
  /** Creates the user unless the e-mail is taken (atomically: two concurrent sign-ups cannot both win). */
  createUser(user: User): Promise<'created' | 'email taken'>;
  userById(id: string): Promise<User | undefined>;
  userByEmail(email: string): Promise<User | undefined>;
  updateUser(id: string, changes: UserChanges): Promise<void>;
  putSession(session: Session): Promise<void>;
  session(tokenHash: string): Promise<Session | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Ends every session of the user, except `keep` (a session's token hash) when given. How many ended. */
  deleteSessionsOf(userId: string, keep?: string): Promise<number>;
  /** The user's sessions, oldest first (expired ones too, until DynamoDB's TTL removes them). */
  sessionsOf(userId: string): Promise<Session[]>;
  /** Records that a request used the session (`lastUsedAt`); nothing when the session is gone. */
  touchSession(tokenHash: string, at: string): Promise<void>;
  /** Moves the account to another address: the new claim, the old one released, the user's `email`, in one
   * transaction, so the address can never belong to two accounts. */
  changeEmail(userId: string, from: string, to: string): Promise<'changed' | 'email taken'>;
  putEmailToken(token: EmailToken): Promise<void>;
  emailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined>;
  /** The user's links not yet used (expired ones too, until DynamoDB's TTL removes them). */
  emailTokensOf(userId: string): Promise<EmailToken[]>;
  /** Removes the user's unused links of one purpose (a newer one replaces them). */
  deleteEmailTokensOf(userId: string, purpose: EmailTokenPurpose): Promise<void>;
  /** Removes and returns the token in one step, so a link works once even when clicked twice at the same time. */
  takeEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined>;
}

/** The user's open realtime WebSockets: closed when the session they were opened with ends (sign-out), or all of
 * them when every session ends (password reset, suspension). */
export interface OpenConnections {
  close(userId: string, sessionId?: string): Promise<void>;
  /** Every one but those of the session `keepSessionId` (a password change, "sign out everywhere else"). */
  closeAllBut(userId: string, keepSessionId: string): Promise<void>;
}

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

export interface RateLimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one attempt in the current fixed window of `key`. */
  hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitVerdict>;
}

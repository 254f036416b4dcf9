// What the accounts domain needs from the outside world, as small interfaces (implementations in lambdas/adapters).
import type { LanguageCode } from '../languages';
import type { EmailMessage } from './emails';

/** pending: registered, e-mail not confirmed yet; suspended: by the operator (spec section 1), sign-in refused,
 * nothing deleted; terminated: closed, data removed. */
export type AccountStatus = 'pending' | 'active' | 'suspended' | 'terminated';

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
}

export type EmailTokenPurpose = 'confirm' | 'reset';

export interface EmailToken {
  tokenHash: string;
  purpose: EmailTokenPurpose;
  userId: string;
  expiresAt: number;
  /** When the link was made (ISO); links from before the last password change are refused. */
  issuedAt?: string;
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
  deleteSessionsOf(userId: string): Promise<void>;
  putEmailToken(token: EmailToken): Promise<void>;
  emailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined>;
  /** Removes and returns the token in one step, so a link works once even when clicked twice at the same time. */
  takeEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailToken | undefined>;
}

/** The user's open realtime WebSockets: closed when the session they were opened with ends (sign-out), or all of
 * them when every session ends (password reset, suspension). */
export interface OpenConnections {
  close(userId: string, sessionId?: string): Promise<void>;
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

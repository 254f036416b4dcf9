// What the API answers about the user and their account (sign-in, GET /me, GET /account, the devices list), built by
// lambdas/core/accounts and read by the web app. Types only.
import type { LanguageCode } from '../../core/languages';

/** pending: registered, e-mail not confirmed yet; suspended: by the operator (spec section 1), sign-in refused,
 * nothing deleted; terminated: closed, data removed. */
export type AccountStatus = 'pending' | 'active' | 'suspended' | 'terminated';

export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
  language: LanguageCode;
  status: AccountStatus;
  createdAt: string;
}

export interface AccountView {
  user: PublicUser;
  /** A new address waiting for its link to be followed. */
  pendingEmail?: { email: string; expiresAt: string };
}

/** A signed-in device as a person recognises it (lambdas/core/accounts/user-agent.ts). */
export interface DeviceSummary {
  /** e.g. Chrome, Firefox, Safari, Edge, Opera, Samsung Internet, YandexBrowser; absent when not recognised. */
  browser?: string;
  /** e.g. Windows, macOS, iOS, iPadOS, Android, ChromeOS, Linux; absent when not recognised. */
  os?: string;
  /** A phone (tablets are not). */
  mobile: boolean;
}

export interface DeviceView {
  id: string;
  current: boolean;
  createdAt: string;
  /** The last request within the hour (recorded at most once an hour); absent before the first such record. */
  lastUsedAt?: string;
  device: DeviceSummary;
  ip: string;
}

// The one way the web app talks to the API (spec section 7): base /api on the same origin, credentials included,
// JSON in and out, `Authorization: Bearer <auth_token cookie>`, the `user-group` header from localStorage when
// present, query strings built from an object (null, false and '' left out). Idempotent requests without a body
// are retried once on 408, 409, 425, 429, 500, 502, 503 and 504; any 401 ends the session and opens the login page.
// Failures surface as ApiError carrying the error catalogue key, which pages translate (useI18n().errorText).
import { isErrorKey, type ErrorKey } from '@loopcast/core/errors';
import { languageOfPath, localizePath } from '../i18n/languages';
import { authToken, leaveForLogin } from '../lib/session';

export type ApiErrorKey = ErrorKey | 'network error';

export class ApiError extends Error {
  constructor(
    readonly key: ApiErrorKey,
    /** HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(key);
    this.name = 'ApiError';
  }
}

/** The catalogue key of a failed call; anything that is not an API answer is our own fault. */
export const errorKeyOf = (error: unknown): ApiErrorKey => (error instanceof ApiError ? error.key : 'internal error');

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/** `?a=1&b=x` from an object, leaving out null, undefined, false and '' (arrays repeat the name). */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || item === undefined || item === false || item === '') continue;
      params.append(name, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const USER_GROUP_STORAGE_KEY = 'user-group';

/** What a status means when the body names no catalogue key (a proxy's HTML error page, say). */
function keyForStatus(status: number): ErrorKey {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'not owner';
  if (status === 404) return 'not found';
  if (status === 429) return 'too many requests';
  if (status === 413) return 'payload too large';
  if (status >= 500) return status === 500 ? 'internal error' : 'service unavailable';
  return 'invalid request';
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  authToken?: () => string | undefined;
  userGroup?: () => string | undefined;
  /** Called on any 401, before the ApiError is thrown. */
  onUnauthorized?: () => void;
}

function storedUserGroup(): string | undefined {
  try {
    return window.localStorage.getItem(USER_GROUP_STORAGE_KEY) || undefined;
  } catch {
    return undefined;
  }
}

function signOutToLogin(): void {
  leaveForLogin(localizePath('/app/auth/login', languageOfPath(window.location.pathname)), { replace: false });
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '/api';
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const tokenOf = options.authToken ?? authToken;
  const groupOf = options.userGroup ?? storedUserGroup;
  const onUnauthorized = options.onUnauthorized ?? signOutToLogin;

  async function request<T>(method: string, path: string, { query, body, signal }: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const token = tokenOf();
    if (token) headers.authorization = `Bearer ${token}`;
    const group = groupOf();
    if (group) headers['user-group'] = group;
    const init: RequestInit = {
      method,
      headers,
      credentials: 'include',
      ...(signal ? { signal } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    const url = `${baseUrl}${path}${queryString(query)}`;
    const retriable = IDEMPOTENT_METHODS.has(method) && body === undefined;

    let response: Response;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await fetchImpl(url, init);
      } catch (error) {
        if (signal?.aborted) throw error; // a cancelled request is not a failure to report
        throw new ApiError('network error', 0);
      }
      if (!(retriable && attempt === 0 && RETRY_STATUSES.has(response.status))) break;
    }

    if (response.status === 401) onUnauthorized();
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const answer = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { error?: unknown; details?: unknown };
      const details = typeof answer.details === 'object' && answer.details !== null ? (answer.details as Record<string, unknown>) : undefined;
      throw new ApiError(isErrorKey(answer.error) ? answer.error : keyForStatus(response.status), response.status, details);
    }
    return parsed as T;
  }

  return {
    request,
    get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, ...(signal ? { signal } : {}) }),
    post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, { body, query }),
    put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body }),
    patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body }),
    delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client: same-origin /api, the session cookie's token, sign-out on 401. */
export const api: ApiClient = createApiClient();

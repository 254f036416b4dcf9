// What an HTTP route implementation sees and returns, independent of API Gateway's event shape.
import type { z } from 'zod';
import type { Deps } from '../wiring/deps';
import type { RouteAuth } from '../contract/routes';

/** The signed-in caller of a `session` route. */
export interface AuthContext {
  userId: string;
  /** Hash of the session token (the token itself is never kept). */
  sessionId: string;
}

export interface ApiRequest<Body, Query, Auth extends AuthContext | undefined> {
  body: Body;
  query: Query;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  cookies: Record<string, string>;
  requestId: string;
  sourceIp: string;
  userAgent: string;
  auth: Auth;
}

export interface ApiResponse {
  status: number;
  /** JSON, or bytes (a Uint8Array) sent as they are with the content-type the route sets. */
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}

/** 64 KiB is far above any JSON body the API takes; larger bodies are refused with 413 before parsing. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Zod's classic schemas or its mini ones (lambdas/contract/stream-task.ts): handler.ts parses with `z.parse`. */
type Schema = z.core.$ZodType;
type Infer<S> = S extends Schema ? z.infer<S> : undefined;
type InferQuery<S> = S extends Schema ? z.infer<S> : Record<string, string>;

export interface RouteImplementation {
  auth: RouteAuth;
  body?: Schema;
  query?: Schema;
  maxBodyBytes?: number;
  /** Raw body instead of JSON (Stripe webhooks verify the exact bytes). */
  rawBody?: boolean;
  /** The body as bytes (pictures). */
  binaryBody?: boolean;
  handle(request: ApiRequest<unknown, unknown, AuthContext | undefined>, deps: Deps): Promise<ApiResponse>;
}

interface RouteOptions<B extends Schema | undefined, Q extends Schema | undefined> {
  body?: B;
  query?: Q;
  maxBodyBytes?: number;
}

/** A route anyone may call. */
export function publicRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  options: RouteOptions<B, Q> & {
    handle(request: ApiRequest<Infer<B>, InferQuery<Q>, undefined>, deps: Deps): Promise<ApiResponse>;
  },
): RouteImplementation {
  return { auth: 'public', ...options } as RouteImplementation;
}

/** A route for signed-in users: `request.auth` is always set (the dispatcher answers 401 otherwise). */
export function userRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  options: RouteOptions<B, Q> & {
    handle(request: ApiRequest<Infer<B>, InferQuery<Q>, AuthContext>, deps: Deps): Promise<ApiResponse>;
  },
): RouteImplementation {
  return { auth: 'session', ...options } as RouteImplementation;
}

/** A route authenticated by a provider signature over the raw body (no session). */
export function signedRoute(options: {
  maxBodyBytes?: number;
  handle(request: ApiRequest<string, Record<string, string>, undefined>, deps: Deps): Promise<ApiResponse>;
}): RouteImplementation {
  return { auth: 'signature', rawBody: true, ...options } as RouteImplementation;
}

/** A route of the stream task API: no session; the run token (`Authorization: Bearer`) is checked by the route
 * against the run's lease (lambdas/core/streams/task-session.ts). `binaryBody` takes bytes (a preview frame). */
export function taskRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  options: RouteOptions<B, Q> & {
    binaryBody?: boolean;
    handle(request: ApiRequest<Infer<B>, InferQuery<Q>, undefined>, deps: Deps): Promise<ApiResponse>;
  },
): RouteImplementation {
  return { auth: 'task', ...options } as RouteImplementation;
}

/** A signed-in route that takes bytes (an image) as its body. */
export function userBinaryRoute(options: {
  maxBodyBytes: number;
  handle(request: ApiRequest<Buffer, Record<string, string>, AuthContext>, deps: Deps): Promise<ApiResponse>;
}): RouteImplementation {
  return { auth: 'session', binaryBody: true, ...options } as RouteImplementation;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): ApiResponse => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});

export const noContent = (): ApiResponse => ({ status: 204 });

// The HTTP route table, defined once. CDK makes one HttpApi route per entry and one Lambda function per
// handler group (entry file lambdas/http/<group>.ts); the local stack's HTTP server dispatches real requests to
// the same group handlers with API Gateway v2 events built from this table. docs/api.md describes each route.

import { TASK_API } from './stream-task';

export const API_BASE = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route:
 * - `public`: anyone;
 * - `session`: a signed-in user (Bearer session token), otherwise 401;
 * - `signature`: no session, the handler verifies a provider signature itself (Stripe webhooks);
 * - `task`: a stream task with its run token (Bearer), checked by the handler against the run's lease.
 */
export type RouteAuth = 'public' | 'session' | 'signature' | 'task';

export interface RouteDefinition {
  method: HttpMethod;
  /** Path below API_BASE with API Gateway placeholders, e.g. `/streams/{id}`. */
  path: string;
  group: string;
  auth: RouteAuth;
}

/** What every `{id}` of a path must look like: our ids are UUIDs and 32-hex upload ids, Stripe's Checkout Session
 * ids about 66 characters. Anything else names nothing, and a long one would pass DynamoDB's 1 KB key limit (a 500). */
export const PATH_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const routes = [
  { method: 'GET', path: '/health', group: 'system', auth: 'public' },

  { method: 'POST', path: '/register', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/confirm', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/confirm/resend', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/login', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/logout', group: 'auth', auth: 'session' },
  { method: 'GET', path: '/me', group: 'auth', auth: 'session' },
  { method: 'GET', path: '/ws', group: 'auth', auth: 'session' },
  { method: 'POST', path: '/forgot-password', group: 'auth', auth: 'public' },
  { method: 'POST', path: '/reset-password', group: 'auth', auth: 'public' },

  // The account page (lambdas/http/account.ts). The e-mailed links are public: they may open signed out.
  { method: 'GET', path: '/account', group: 'account', auth: 'session' },
  { method: 'PATCH', path: '/account', group: 'account', auth: 'session' },
  { method: 'POST', path: '/account/email', group: 'account', auth: 'session' },
  { method: 'POST', path: '/account/email/confirm', group: 'account', auth: 'public' },
  { method: 'POST', path: '/account/password', group: 'account', auth: 'session' },
  { method: 'GET', path: '/account/sessions', group: 'account', auth: 'session' },
  { method: 'POST', path: '/account/sessions/sign-out-others', group: 'account', auth: 'session' },
  { method: 'DELETE', path: '/account/sessions/{id}', group: 'account', auth: 'session' },
  { method: 'GET', path: '/account/export', group: 'account', auth: 'session' },
  { method: 'POST', path: '/account/close', group: 'account', auth: 'session' },
  { method: 'POST', path: '/account/close/confirm', group: 'account', auth: 'public' },

  { method: 'GET', path: '/plans', group: 'billing', auth: 'public' },
  { method: 'GET', path: '/subscription', group: 'billing', auth: 'session' },
  { method: 'POST', path: '/billing/checkout', group: 'billing', auth: 'session' },
  { method: 'GET', path: '/billing/checkout/{id}', group: 'billing', auth: 'session' },
  { method: 'POST', path: '/billing/portal', group: 'billing', auth: 'session' },
  { method: 'POST', path: '/billing/webhook', group: 'billing-webhook', auth: 'signature' },

  { method: 'GET', path: '/videos', group: 'media', auth: 'session' },
  { method: 'GET', path: '/videos/{id}', group: 'media', auth: 'session' },
  { method: 'PATCH', path: '/videos/{id}', group: 'media', auth: 'session' },
  { method: 'DELETE', path: '/videos/{id}', group: 'media', auth: 'session' },
  { method: 'POST', path: '/videos/{id}/quality', group: 'media', auth: 'session' },
  // Signed URL (lambdas/core/media/media-urls.ts): an <img> cannot send the session token.
  { method: 'GET', path: '/media/{id}/thumbnail', group: 'media', auth: 'public' },
  { method: 'GET', path: '/media/{id}/preview', group: 'media', auth: 'public' },
  { method: 'GET', path: '/media/{id}/stream-thumbnail', group: 'media', auth: 'public' },

  { method: 'GET', path: '/channels', group: 'channels', auth: 'session' },
  { method: 'POST', path: '/channels/rtmp', group: 'channels', auth: 'session' },
  { method: 'PATCH', path: '/channels/{id}', group: 'channels', auth: 'session' },
  { method: 'DELETE', path: '/channels/{id}', group: 'channels', auth: 'session' },
  { method: 'POST', path: '/channels/youtube', group: 'channels', auth: 'session' },
  // Google's redirect back: a browser navigation, bound to the session by its cookie (lambdas/http/channels.ts).
  { method: 'GET', path: '/channels/youtube/callback', group: 'channels', auth: 'public' },

  { method: 'GET', path: '/streams', group: 'streams', auth: 'session' },
  { method: 'POST', path: '/streams', group: 'streams', auth: 'session' },
  { method: 'GET', path: '/streams/{id}', group: 'streams', auth: 'session' },
  { method: 'PATCH', path: '/streams/{id}', group: 'streams', auth: 'session' },
  { method: 'DELETE', path: '/streams/{id}', group: 'streams', auth: 'session' },
  { method: 'POST', path: '/streams/{id}/start', group: 'streams', auth: 'session' },
  { method: 'POST', path: '/streams/{id}/stop', group: 'streams', auth: 'session' },
  { method: 'PUT', path: '/streams/{id}/playlist', group: 'streams', auth: 'session' },
  { method: 'PUT', path: '/streams/{id}/thumbnail', group: 'streams', auth: 'session' },
  { method: 'DELETE', path: '/streams/{id}/thumbnail', group: 'streams', auth: 'session' },
  { method: 'PUT', path: '/streams/{id}/schedule', group: 'streams', auth: 'session' },
  { method: 'GET', path: '/streams/{id}/history', group: 'streams', auth: 'session' },
  { method: 'GET', path: '/incidents', group: 'streams', auth: 'session' },

  { method: 'GET', path: '/notifications', group: 'notifications', auth: 'session' },
  { method: 'PATCH', path: '/notifications', group: 'notifications', auth: 'session' },
  { method: 'POST', path: '/notifications/telegram', group: 'notifications', auth: 'session' },
  { method: 'DELETE', path: '/notifications/telegram', group: 'notifications', auth: 'session' },
  // Telegram's calls to the operator's bot webhook, checked by the secret token set with setWebhook.
  { method: 'POST', path: '/telegram/webhook', group: 'telegram-webhook', auth: 'signature' },

  // The stream task API (lambdas/contract/stream-task.ts): what a running stream task may do, and nothing else.
  { method: 'POST', path: TASK_API.lease, group: 'stream-tasks', auth: 'task' },
  { method: 'POST', path: TASK_API.heartbeat, group: 'stream-tasks', auth: 'task' },
  { method: 'PUT', path: TASK_API.preview, group: 'stream-tasks', auth: 'task' },
  { method: 'POST', path: TASK_API.probe, group: 'stream-tasks', auth: 'task' },
] as const satisfies readonly RouteDefinition[];

export type Route = (typeof routes)[number];
export type HandlerGroup = Route['group'];
export type RouteKey = `${Route['method']} ${typeof API_BASE}${Route['path']}`;

/** API Gateway's route key for a route, e.g. `GET /api/streams/{id}`. */
export const routeKeyOf = (route: RouteDefinition): string => `${route.method} ${API_BASE}${route.path}`;

export const handlerGroups = (): HandlerGroup[] => [...new Set(routes.map((r) => r.group))];

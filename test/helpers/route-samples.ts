// One well-formed request for every route of the table (lambdas/contract/routes.ts), for the generated authorization
// matrix and the fuzz test. A route without a sample fails both: a new route must say how it is called.
import { routeKeyOf, routes, type RouteDefinition } from '../../lambdas/contract/routes';
import { strongPassword, uniqueEmail } from './accounts';

/** The owner's resources the requests name. */
export interface World {
  email: string;
  userId: string;
  videoId: string;
  streamId: string;
  channelId: string;
}

export interface SampleRequest {
  path: string;
  body?: unknown;
  /** Query parameters, added to the path. */
  query?: Record<string, string>;
  /** Raw bytes and their type (pictures), instead of JSON. */
  raw?: { bytes: Uint8Array; contentType: string };
}

/** The smallest PNG header: the API decides by the first bytes. */
export const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

type Sample = (world: World) => Omit<SampleRequest, 'path'> & { id?: string };

const samples: Record<string, Sample> = {
  'GET /api/health': () => ({}),
  'POST /api/register': () => ({
    body: { displayName: 'Matrix', email: uniqueEmail('matrix'), password: strongPassword, acceptTerms: true, ageConfirmed: true },
  }),
  'POST /api/confirm': () => ({ body: { token: 'not-a-real-token-at-all' } }),
  'POST /api/confirm/resend': (w) => ({ body: { email: w.email } }),
  'POST /api/login': (w) => ({ body: { email: w.email, password: 'not the password at all' } }),
  'POST /api/logout': () => ({}),
  'GET /api/me': () => ({}),
  'GET /api/ws': () => ({}),
  'POST /api/forgot-password': (w) => ({ body: { email: w.email } }),
  'POST /api/reset-password': () => ({ body: { token: 'not-a-real-token-at-all', password: 'a brand new passphrase' } }),
  'GET /api/account': () => ({}),
  'PATCH /api/account': () => ({ body: { displayName: 'Matrix renamed' } }),
  'POST /api/account/email': () => ({ body: { email: uniqueEmail('matrix-new'), password: 'not the password at all' } }),
  'POST /api/account/email/confirm': () => ({ body: { token: 'not-a-real-token-at-all' } }),
  'POST /api/account/password': () => ({ body: { currentPassword: 'not the password at all', newPassword: 'a brand new passphrase' } }),
  'GET /api/account/sessions': () => ({}),
  'POST /api/account/sessions/sign-out-others': () => ({}),
  'DELETE /api/account/sessions/{id}': () => ({ id: 'not-a-session-id' }),
  'GET /api/account/export': () => ({}),
  'POST /api/account/close': () => ({ body: { password: 'not the password at all' } }),
  'POST /api/account/close/confirm': () => ({ body: { token: 'not-a-real-token-at-all' } }),
  'GET /api/plans': () => ({}),
  'GET /api/subscription': () => ({}),
  'POST /api/billing/checkout': () => ({ body: { plan: 'basic', period: 'month' } }),
  'GET /api/billing/checkout/{id}': () => ({ id: 'cs_test_a1B2c3D4e5F6' }),
  'POST /api/billing/portal': () => ({ body: {} }),
  'POST /api/billing/webhook': () => ({ raw: { bytes: new TextEncoder().encode('{"id":"evt_1","type":"invoice.paid"}'), contentType: 'application/json' } }),
  'GET /api/videos': () => ({}),
  'GET /api/videos/{id}': (w) => ({ id: w.videoId }),
  'PATCH /api/videos/{id}': (w) => ({ id: w.videoId, body: { title: 'Renamed loop' } }),
  'DELETE /api/videos/{id}': (w) => ({ id: w.videoId }),
  // The world's video is a small clip: 720p30 at the low tier already, so the owner's call changes nothing.
  'POST /api/videos/{id}/quality': (w) => ({ id: w.videoId, body: { profile: '720p30', tier: 'low' } }),
  'GET /api/media/{id}/thumbnail': (w) => ({ id: w.videoId }),
  'GET /api/media/{id}/preview': (w) => ({ id: w.streamId }),
  'GET /api/media/{id}/stream-thumbnail': (w) => ({ id: w.streamId }),
  'GET /api/channels': () => ({}),
  'POST /api/channels/rtmp': () => ({ body: { name: 'Second destination', url: 'rtmp://127.0.0.1:1935/live', key: 'matrix-key-0123456789' } }),
  'PATCH /api/channels/{id}': (w) => ({ id: w.channelId, body: { name: 'Renamed destination' } }),
  'DELETE /api/channels/{id}': (w) => ({ id: w.channelId }),
  'POST /api/channels/youtube': () => ({ body: { language: 'en' } }),
  'GET /api/channels/youtube/callback': () => ({}),
  'GET /api/streams': () => ({}),
  'POST /api/streams': () => ({ body: { title: 'Another loop' } }),
  'GET /api/streams/{id}': (w) => ({ id: w.streamId }),
  'PATCH /api/streams/{id}': (w) => ({ id: w.streamId, body: { title: 'Renamed stream' } }),
  'PUT /api/streams/{id}/schedule': (w) => ({ id: w.streamId, body: { schedule: null } }),
  'DELETE /api/streams/{id}': (w) => ({ id: w.streamId }),
  'POST /api/streams/{id}/start': (w) => ({ id: w.streamId }),
  'POST /api/streams/{id}/stop': (w) => ({ id: w.streamId }),
  'PUT /api/streams/{id}/playlist': (w) => ({ id: w.streamId, body: { videoIds: [w.videoId], shuffle: true, apply: 'join' } }),
  'PUT /api/streams/{id}/thumbnail': (w) => ({ id: w.streamId, raw: { bytes: pngBytes, contentType: 'image/png' } }),
  'DELETE /api/streams/{id}/thumbnail': (w) => ({ id: w.streamId }),
  'GET /api/streams/{id}/history': (w) => ({ id: w.streamId }),
  'GET /api/incidents': () => ({}),
  'GET /api/notifications': () => ({}),
  'PATCH /api/notifications': () => ({ body: { email: false } }),
  'POST /api/notifications/telegram': () => ({}),
  'DELETE /api/notifications/telegram': () => ({}),
  'POST /api/telegram/webhook': () => ({ body: { update_id: 1, message: { message_id: 1, chat: { id: 1 }, text: '/start' } } }),
  // A stream task names its run; the matrix's callers have session tokens, never the run's token.
  'POST /api/task/lease': (w) => ({ body: taskCaller(w) }),
  'POST /api/task/heartbeat': (w) => ({ body: { ...taskCaller(w), heartbeat: stoppedHeartbeat(w.streamId) } }),
  'PUT /api/task/preview': (w) => ({ query: taskCaller(w), raw: { bytes: jpegBytes, contentType: 'image/jpeg' } }),
  'POST /api/task/probe': (w) => ({ body: { ...taskCaller(w), input: 'video', probe: { etag: '"matrix"', durationUs: 1_000_000, streams: [] } } }),
};

const taskCaller = (w: World) => ({ userId: w.userId, streamId: w.streamId, instanceId: 'matrix-task' });
const stoppedHeartbeat = (streamId: string) => {
  const at = new Date().toISOString();
  return {
    streamId,
    desired: 'stopped',
    actual: 'stopped',
    since: at,
    uptimeSeconds: 0,
    bitrateKbps: 0,
    fps: 0,
    speed: 0,
    loops: 0,
    restarts: 0,
    scheduledRestarts: 0,
    destinations: [],
    at,
  };
};
/** A JPEG's first bytes (start of image, JFIF marker). */
const jpegBytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

export const routesWithoutSample = (): string[] => routes.map(routeKeyOf).filter((key) => !samples[key]);

/** The sample request of a route, its `{id}` filled in (path relative to /api). */
export function sampleRequest(route: RouteDefinition, world: World): SampleRequest {
  const sample = samples[routeKeyOf(route)];
  if (!sample) throw new Error(`no sample request for ${routeKeyOf(route)} in test/helpers/route-samples.ts`);
  const { id, query, ...rest } = sample(world);
  const path = route.path.replace('{id}', id ?? 'none');
  return { path: query ? `${path}?${new URLSearchParams(query)}` : path, ...rest };
}

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** Sends a sample (or any) request to an API base URL; JSON bodies as JSON, raw ones as they are. */
export async function send(
  base: string,
  method: string,
  request: SampleRequest,
  options: { token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  let body: BodyInit | undefined;
  if (request.raw) {
    headers['content-type'] ??= request.raw.contentType;
    body = new Uint8Array(request.raw.bytes);
  } else if (request.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  }
  const response = await fetch(`${base}${request.path}`, {
    method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

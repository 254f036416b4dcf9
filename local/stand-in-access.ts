// Who may call the local stand-ins written in Node (s3rver, the Scheduler stand-in), as DynamoDB Local's launcher
// checks in Java (local/LoopbackDynamoDbLocal.java): requests that name a loopback host (a DNS-rebinding page names
// its own), signed with the local stack's credentials (another user of the machine reaches 127.0.0.1 too). s3rver
// itself checks only that a SigV4 request names a known access key id, and lets unsigned requests through; the
// Scheduler stand-in checked nothing. Signature Version 4 (Authorization header or presigned query), verified in full:
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { LocalCredentials } from '../lambdas/contract/local-credentials';

/** Requests must name this machine's loopback: 127.0.0.1, localhost or [::1], with any port. */
export const isLoopbackHost = (host: string | undefined): boolean =>
  host !== undefined && ['127.0.0.1', 'localhost', '[::1]'].includes(host.toLowerCase().replace(/:\d+$/, ''));

export interface SignedRequest {
  method: string;
  /** The request target as received: the path and query, still percent-encoded. */
  url: string;
  headers: IncomingHttpHeaders;
}

export type SignatureRefusal = 'AccessDenied' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'AuthorizationHeaderMalformed' | 'RequestTimeTooSkewed';

export type SignatureCheck = { ok: true } | { ok: false; code: SignatureRefusal; message: string };

export interface SignatureOptions {
  /** The body's SHA-256 (hex), for services that sign it without stating it (all but S3, which sends
   * x-amz-content-sha256, or UNSIGNED-PAYLOAD in a presigned URL). */
  payloadHash?: string;
  /** The canonical path is the path encoded once more (all services but S3, whose path is taken as sent). */
  uriEscapePath?: boolean;
  now?: number;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60_000;
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

const refuse = (code: SignatureRefusal, message: string): SignatureCheck => ({ ok: false, code, message });

/** RFC 3986 unreserved characters stay, everything else is percent-encoded (SigV4's URI encoding). */
const uriEncode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** What the SDK signs as the path of a service other than S3: `.` and `..` segments resolved, every segment encoded
 * again (the path arrives encoded once). */
function escapedPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const normalized = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return uriEncode(normalized).replace(/%2F/g, '/');
}

/** Same length or not, compared without an early exit on the first different byte. */
function sameText(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

/** The query's parameters, decoded, in order; undefined when a part is not valid percent-encoding. */
function queryParameters(rawQuery: string): [string, string][] | undefined {
  try {
    return rawQuery
      .split('&')
      .filter(Boolean)
      .map((part) => {
        const equals = part.indexOf('=');
        const [key, value] = equals < 0 ? [part, ''] : [part.slice(0, equals), part.slice(equals + 1)];
        return [decodeURIComponent(key), decodeURIComponent(value)];
      });
  } catch {
    return undefined;
  }
}

/** `yyyyMMddTHHmmssZ` as a time in ms, or NaN. */
function amzTime(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** Signing keys by secret, day, region and service, as AWS's signers keep them: deriving one costs four HMACs per
 * request, and a KeyObject makes the request's own HMAC several times cheaper than a Buffer key (Node 24). */
const signingKeys = new Map<string, KeyObject>();
function signingKey(secretAccessKey: string, day: string, region: string, service: string): KeyObject {
  const id = [secretAccessKey, day, region, service].join('\n');
  let key = signingKeys.get(id);
  if (!key) {
    if (signingKeys.size >= 16) signingKeys.clear();
    key = createSecretKey(hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request'));
    signingKeys.set(id, key);
  }
  return key;
}
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/**
 * Checks that `request` is signed with `credentials` (the payload hash given, or as an S3 request states it: its
 * x-amz-content-sha256 header, or UNSIGNED-PAYLOAD for a presigned URL), within its time: 15 minutes of skew for a
 * signed header, the URL's own expiry (at most a week) for a presigned one. Anonymous requests are refused.
 */
export function checkSignatureV4(request: SignedRequest, credentials: LocalCredentials, options: SignatureOptions = {}): SignatureCheck {
  const now = options.now ?? Date.now();
  const queryAt = request.url.indexOf('?');
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const parameters = queryParameters(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
  if (!parameters) return refuse('AuthorizationHeaderMalformed', 'The query string is not valid percent-encoding.');
  const query = new Map(parameters);
  const header = request.headers.authorization;
  const presigned = query.has('X-Amz-Algorithm') || query.has('X-Amz-Signature') || query.has('Signature');

  if (header === undefined && !presigned) {
    return refuse('AccessDenied', "Anonymous requests are refused: sign them with the local stack's credentials.");
  }
  if (header !== undefined && presigned) {
    return refuse('AccessDenied', 'Only one authentication mechanism is allowed: the Authorization header or a presigned URL.');
  }

  let credential: string;
  let signedHeaderList: string;
  let signature: string;
  let amzDate: string;
  let payloadHash: string;
  if (header !== undefined) {
    if (!header.startsWith(`${ALGORITHM} `)) return refuse('AccessDenied', `Only ${ALGORITHM} (Signature Version 4) is accepted.`);
    const fields = new Map(
      header
        .slice(ALGORITHM.length + 1)
        .split(',')
        .map((field) => {
          const equals = field.indexOf('=');
          return [field.slice(0, equals).trim(), field.slice(equals + 1).trim()] as const;
        }),
    );
    const amzDateHeader = request.headers['x-amz-date'];
    const contentHash = options.payloadHash ?? request.headers['x-amz-content-sha256'];
    if (!fields.get('Credential') || !fields.get('SignedHeaders') || !fields.get('Signature') || typeof amzDateHeader !== 'string') {
      return refuse('AuthorizationHeaderMalformed', 'The authorization header needs Credential, SignedHeaders, Signature and an x-amz-date header.');
    }
    if (typeof contentHash !== 'string') return refuse('AuthorizationHeaderMalformed', 'Missing required header: x-amz-content-sha256.');
    [credential, signedHeaderList, signature, amzDate, payloadHash] = [
      fields.get('Credential')!,
      fields.get('SignedHeaders')!,
      fields.get('Signature')!,
      amzDateHeader,
      contentHash,
    ];
    if (Math.abs(now - amzTime(amzDate)) > MAX_SKEW_MS || Number.isNaN(amzTime(amzDate))) {
      return refuse('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    }
  } else {
    if (query.get('X-Amz-Algorithm') !== ALGORITHM) return refuse('AccessDenied', `Only ${ALGORITHM} (Signature Version 4) is accepted.`);
    const required = ['X-Amz-Credential', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-Expires'];
    if (required.some((name) => !query.get(name))) return refuse('AuthorizationHeaderMalformed', `A presigned URL needs ${required.join(', ')}.`);
    [credential, signedHeaderList, signature, amzDate] = [
      query.get('X-Amz-Credential')!,
      query.get('X-Amz-SignedHeaders')!,
      query.get('X-Amz-Signature')!,
      query.get('X-Amz-Date')!,
    ];
    payloadHash = options.payloadHash ?? query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(query.get('X-Amz-Expires'));
    const signedAt = amzTime(amzDate);
    if (!Number.isInteger(expires) || expires < 0 || expires > MAX_PRESIGNED_SECONDS || Number.isNaN(signedAt)) {
      return refuse('AuthorizationHeaderMalformed', 'X-Amz-Date or X-Amz-Expires is not valid.');
    }
    if (now > signedAt + expires * 1000 || signedAt - now > MAX_SKEW_MS) return refuse('AccessDenied', 'Request has expired.');
  }

  const scope = credential.split('/');
  if (scope.length !== 5 || scope[4] !== 'aws4_request' || !amzDate.startsWith(scope[1]!)) {
    return refuse('AuthorizationHeaderMalformed', 'The credential scope is not <key id>/<date>/<region>/<service>/aws4_request of the request date.');
  }
  const [accessKeyId, day, region, service] = scope as [string, string, string, string];
  if (!sameText(accessKeyId, credentials.accessKeyId)) {
    return refuse('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host') || signedHeaders.some((name, index) => name !== name.toLowerCase() || (index > 0 && name <= signedHeaders[index - 1]!))) {
    return refuse('AuthorizationHeaderMalformed', 'SignedHeaders must be lower case, sorted and include host.');
  }

  const canonicalQuery = parameters
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = request.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalPath = options.uriEscapePath ? escapedPath(path) : path;
  const canonicalRequest = [request.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaderList, payloadHash].join('\n');
  const stringToSign = [ALGORITHM, amzDate, `${day}/${region}/${service}/aws4_request`, sha256Hex(canonicalRequest)].join('\n');
  const expected = createHmac('sha256', signingKey(credentials.secretAccessKey, day, region, service))
    .update(stringToSign, 'utf8')
    .digest('hex');
  if (!sameText(signature, expected)) {
    return refuse('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }
  return { ok: true };
}

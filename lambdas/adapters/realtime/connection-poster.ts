// PostToConnection through the management API client's own parts, without its per-call middleware pipeline.
//
// A broadcast is one PostToConnection per connection of the user. Sent with `client.send`, each one runs the client's
// generic pipeline (serializer, endpoint rules, user agent, retry bookkeeping, signing, deserializer), about 450 µs
// of CPU per call on Node 24 against about 160 µs for the very same request signed with the client's credentials
// and sent by its HTTP handler (docs/realtime.md, "Fan-out"). This poster keeps everything the client resolved
// (credentials, region, hash, keep-alive sockets, retry strategy) and skips only the middleware, for this one
// operation whose wire format is a POST of the raw bytes answered by a status. Everything else the product asks of
// the management API (DeleteConnection) goes through `client.send`.
import type { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import type { RetryErrorType, RetryStrategyV2, SdkError } from '@smithy/types';

export type PostOutcome = 'delivered' | 'gone';

/** A PostToConnection the management API refused (a 4xx other than 410 and 429), or that still failed when the
 * client's retry strategy gave up. */
export class PostToConnectionError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'PostToConnectionError';
  }
}

/** A failed attempt as the SDK's retry middleware classifies it (its own functions), so the client's retry
 * strategy retries exactly what `client.send` would: throttling (429, LimitExceededException) and transient
 * failures (500, 502, 503, 504, a reset or refused connection), nothing else. */
function retryErrorType(failure: SdkError): RetryErrorType {
  if (isThrottlingError(failure)) return 'THROTTLING';
  if (isTransientError(failure)) return 'TRANSIENT';
  return isServerError(failure) ? 'SERVER_ERROR' : 'CLIENT_ERROR';
}

export class ConnectionPoster {
  private readonly signer: SignatureV4;
  private readonly endpoint: URL;
  /** The endpoint's own path (the stage on AWS), without a trailing slash. */
  private readonly basePath: string;

  /** `endpoint`: the management API's URL, as the client was given it (https://{api}.execute-api.{region}.amazonaws.com/{stage}). */
  constructor(
    private readonly client: ApiGatewayManagementApiClient,
    endpoint: string,
  ) {
    this.endpoint = new URL(endpoint);
    this.basePath = this.endpoint.pathname.replace(/\/+$/, '');
    const { credentials, region, sha256 } = client.config;
    this.signer = new SignatureV4({ credentials, region, sha256, service: 'execute-api' });
  }

  /** Posts `data` to the connection: 'delivered', or 'gone' (410: the browser went away). Anything else throws a
   * PostToConnectionError, once the client's retry strategy has retried what it retries. */
  async post(connectionId: string, data: Uint8Array): Promise<PostOutcome> {
    const strategy = await this.retryStrategy();
    let token = await strategy.acquireInitialRetryToken('execute-api');
    for (;;) {
      let failure: SdkError;
      let detail: string;
      try {
        const { response } = await this.client.config.requestHandler.handle(await this.signedRequest(connectionId, data));
        detail = await bodyText(response.body);
        if (response.statusCode < 300) {
          strategy.recordSuccess(token);
          return 'delivered';
        }
        if (response.statusCode === 410) return 'gone';
        // API Gateway names the error in this header ("LimitExceededException:http://...").
        const name = String(response.headers['x-amzn-errortype'] ?? 'UnknownError').split(':')[0]!;
        detail = `${response.statusCode} ${detail}`;
        failure = Object.assign(new Error(detail), { name, $metadata: { httpStatusCode: response.statusCode } }) as SdkError;
      } catch (error) {
        failure = error as SdkError;
        detail = failure.message;
      }
      const errorType = retryErrorType(failure);
      const attempts = token.getRetryCount() + 1;
      try {
        // Waits the strategy's backoff (longer for throttling) before it answers.
        token = await strategy.refreshRetryTokenForRetry(token, { errorType });
      } catch {
        throw new PostToConnectionError(
          `PostToConnection failed (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}): ${detail}`,
          failure.$metadata?.httpStatusCode,
        );
      }
    }
  }

  /** The client's own retry strategy (standard mode unless configured otherwise: both are token based). */
  private async retryStrategy(): Promise<RetryStrategyV2> {
    const strategy = await this.client.config.retryStrategy();
    if (!('acquireInitialRetryToken' in strategy)) throw new Error('the management API client has a legacy retry strategy');
    return strategy;
  }

  private signedRequest(connectionId: string, data: Uint8Array) {
    const { protocol, hostname, port, host } = this.endpoint;
    const request = new HttpRequest({
      method: 'POST',
      protocol,
      hostname,
      ...(port ? { port: Number(port) } : {}),
      path: `${this.basePath}/@connections/${encodeURIComponent(connectionId)}`,
      headers: { host, 'content-type': 'application/octet-stream', 'content-length': String(data.byteLength) },
      body: data,
    });
    return this.signer.sign(request) as Promise<HttpRequest>;
  }
}

/** The response body as text (also what frees the keep-alive socket for the next request). */
async function bodyText(body: unknown): Promise<string> {
  if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') return '';
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

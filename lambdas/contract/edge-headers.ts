// Headers CloudFront adds to its requests to the API origins (lib/web-stack.ts, web/edge/api-viewer-request.js), and
// the local HTTP origin likewise (local/http-server.ts); the HTTP handlers read them (lambdas/http/handler.ts).

/** The browser's IP, set by the CloudFront Function on the API behaviors (overwriting what the client sent). */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

/** A secret only CloudFront knows (an origin custom header, from the Api stack's OriginVerify secret): it proves a
 * request came through CloudFront, so its `x-viewer-address` can be believed. The API's own endpoint and the uploads
 * Function URL are reachable directly, where a client may send any header. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

// CloudFront Function (runtime cloudfront-js-2.0) on the /api/* and /api/uploads* behaviors: passes the viewer's
// IP to the API as `x-viewer-address`, overwriting whatever the client sent. API Gateway only sees a CloudFront
// edge as its peer, and CloudFront's own viewer-address header cannot be forwarded beside all viewer headers.
// The API's rate limits per IP read it (lambdas/http/handler.ts), but only beside the `x-origin-verify` secret that
// CloudFront adds as an origin custom header (lib/web-stack.ts): the API's own endpoint and the uploads Function URL
// are reachable without CloudFront, where a client could send any `x-viewer-address`. The local origin sets both.
function handler(event) {
  var request = event.request;
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  return request;
}

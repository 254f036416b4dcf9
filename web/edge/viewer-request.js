// CloudFront Function (runtime cloudfront-js-2.0) on the distribution's default behavior: maps clean URLs to the
// prerendered HTML files in S3, and /app/* to the client-rendered SPA shell. Plain JavaScript with no imports
// or exports, as CloudFront requires; tests evaluate this very file (lib/web-stack.test.ts).
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/app' || uri.indexOf('/app/') === 0) {
    if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) request.uri = '/__spa-fallback.html';
    return request;
  }
  if (uri.charAt(uri.length - 1) === '/') {
    request.uri = uri + 'index.html';
  } else if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) {
    request.uri = uri + '/index.html';
  }
  return request;
}

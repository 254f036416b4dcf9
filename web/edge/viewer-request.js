// CloudFront Function (runtime cloudfront-js-2.0) on the distribution's default behavior, associated with both the
// viewer-request and the viewer-response event. Plain JavaScript with no imports or exports, as CloudFront requires.
// The local stack runs this very file for every static request (local/static-site.ts), and tests run it directly
// (lib/viewer-request.test.ts), so the rules below hold in one place:
//   - prefixed legal pages (/es/terms, /ua/refund-policy, ...) answer 301 to the English original;
//   - a trailing slash answers 301 to the path without it;
//   - a path with an empty segment (//), a backslash or a control character is no page (404): browsers read a
//     Location of //host or /\host (tabs and newlines removed) as another site, so no redirect may ever start so;
//   - an unprefixed translated page (/, /pricing, /soon) answers 302 to the visitor's language: the saved choice
//     in the i18n_redirected cookie, else (first visit) the browser's Accept-Language, setting the cookie;
//   - clean URLs map to the prerendered HTML; /app/* (in every language) to the client-rendered SPA shell;
//   - any other path gets the not-found page with status 404 (set at viewer-response, because distribution-wide
//     custom error responses would also rewrite the API's own 403/404 JSON answers).
// The page lists below mirror web/src/app/site-map.ts; a test fails when they differ.

var LANGUAGE_PREFIXES = ['es', 'hi', 'ru', 'ua'];
var TRANSLATED_PAGES = ['/', '/pricing', '/soon'];
var LEGAL_PAGES = ['/terms', '/privacy', '/offer', '/refund-policy'];
var LOCALE_COOKIE = 'i18n_redirected';
var LOCALE_COOKIE_ATTRIBUTES = 'Max-Age=31536000; Path=/; SameSite=Lax';
var SPA_SHELL = '/__spa-fallback.html';
var NOT_FOUND_PAGE = '/404.html';
// Accept-Language subtags of our languages; Ukrainian is "uk" in browsers and "ua" in our URLs.
var BROWSER_LANGUAGES = { en: 'en', es: 'es', hi: 'hi', ru: 'ru', uk: 'ua', ua: 'ua' };

// Never a page, never redirected: `//evil.example/` must not become `Location: //evil.example`.
var NOT_A_PAGE = /\/\/|\\|[\u0000-\u001f\u007f]/;

function classify(uri) {
  if (NOT_A_PAGE.test(uri)) return { kind: 'not-found', language: 'en', rest: uri };
  var segments = uri.split('/');
  var language = LANGUAGE_PREFIXES.indexOf(segments[1]) >= 0 ? segments[1] : 'en';
  var rest = language === 'en' ? uri : uri.slice(language.length + 1) || '/';
  var last = segments[segments.length - 1];
  if (last.indexOf('.') >= 0) return { kind: 'file', language: language, rest: rest };
  if (uri.length > 1 && uri.charAt(uri.length - 1) === '/') return { kind: 'trailing-slash', language: language, rest: rest };
  if (rest === '/app' || rest.indexOf('/app/') === 0) return { kind: 'app', language: language, rest: rest };
  if (TRANSLATED_PAGES.indexOf(rest) >= 0) return { kind: 'page', language: language, rest: rest };
  if (LEGAL_PAGES.indexOf(rest) >= 0) return { kind: language === 'en' ? 'page' : 'legal-redirect', language: language, rest: rest };
  return { kind: 'not-found', language: language, rest: rest };
}

function queryString(querystring) {
  var parts = [];
  for (var name in querystring) {
    var entry = querystring[name];
    var values = entry.multiValue ? entry.multiValue : [entry];
    for (var i = 0; i < values.length; i++) {
      parts.push(encodeURIComponent(name) + (values[i].value === '' ? '' : '=' + encodeURIComponent(values[i].value)));
    }
  }
  return parts.length ? '?' + parts.join('&') : '';
}

function redirect(statusCode, location, cookies) {
  var response = {
    statusCode: statusCode,
    statusDescription: statusCode === 301 ? 'Moved Permanently' : 'Found',
    headers: { location: { value: location }, 'cache-control': { value: statusCode === 301 ? 'public, max-age=3600' : 'private, no-store' } },
  };
  if (cookies) response.cookies = cookies;
  return response;
}

/** The first of the visitor's Accept-Language entries, by quality, that we speak; undefined when none. */
function browserLanguage(header) {
  if (!header) return undefined;
  var entries = header.split(',').map(function (part, index) {
    var pieces = part.trim().split(';');
    var quality = 1;
    for (var i = 1; i < pieces.length; i++) {
      var parameter = pieces[i].trim();
      if (parameter.indexOf('q=') === 0) quality = parseFloat(parameter.slice(2));
    }
    return { tag: pieces[0].trim().toLowerCase().split('-')[0], quality: isNaN(quality) ? 0 : quality, index: index };
  });
  entries.sort(function (a, b) {
    return b.quality - a.quality || a.index - b.index;
  });
  for (var j = 0; j < entries.length; j++) {
    if (entries[j].quality > 0 && BROWSER_LANGUAGES[entries[j].tag]) return BROWSER_LANGUAGES[entries[j].tag];
  }
  return undefined;
}

function onViewerRequest(request) {
  var uri = request.uri;
  var target = classify(uri);
  // One leading slash, whatever classify let through: a redirect stays on this site.
  if (target.kind === 'trailing-slash') return redirect(301, '/' + uri.replace(/^\/+/, '').replace(/\/+$/, '') + queryString(request.querystring || {}));
  if (target.kind === 'legal-redirect') return redirect(301, target.rest + queryString(request.querystring || {}));
  if (target.kind === 'file') return request;
  if (target.kind === 'app') {
    request.uri = SPA_SHELL;
    return request;
  }
  if (target.kind === 'not-found') {
    request.uri = NOT_FOUND_PAGE;
    return request;
  }
  if (target.language === 'en' && TRANSLATED_PAGES.indexOf(uri) >= 0) {
    var cookie = request.cookies && request.cookies[LOCALE_COOKIE];
    var saved = cookie && (cookie.value === 'en' || LANGUAGE_PREFIXES.indexOf(cookie.value) >= 0) ? cookie.value : undefined;
    var preferred = saved || browserLanguage(request.headers && request.headers['accept-language'] && request.headers['accept-language'].value);
    if (preferred && preferred !== 'en') {
      var location = '/' + preferred + (uri === '/' ? '' : uri) + queryString(request.querystring || {});
      var cookies;
      if (!saved) {
        cookies = {};
        cookies[LOCALE_COOKIE] = { value: preferred, attributes: LOCALE_COOKIE_ATTRIBUTES };
      }
      return redirect(302, location, cookies);
    }
  }
  request.uri = uri === '/' ? '/index.html' : uri + '/index.html';
  return request;
}

function onViewerResponse(request, response) {
  // CloudFront runs viewer-response functions only for origin answers below 400. Whether `request.uri` is the
  // viewer's or the rewritten one, an unknown page is recognised.
  if (request.uri === NOT_FOUND_PAGE || classify(request.uri).kind === 'not-found') {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  return response;
}

function handler(event) {
  if (event.context && event.context.eventType === 'viewer-response') return onViewerResponse(event.request, event.response);
  return onViewerRequest(event.request);
}

import { pagePath } from './page-path';

test.each([
  ['http://x/', '/'],
  ['http://x/_root.data', '/'],
  ['http://x/_.data', '/'],
  ['http://x/es.data', '/es'],
  ['http://x/es/pricing.data?_routes=a', '/es/pricing'],
  ['http://x/terms', '/terms'],
  ['http://x/terms/', '/terms'],
  ['http://x/es/', '/es'],
])('%s is the page %s', (url, page) => {
  expect(pagePath(new Request(url))).toBe(page);
});

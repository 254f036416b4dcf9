/** The page a loader runs for: prerendering requests `/es/pricing/` and `/es/pricing.data` (`/_root.data` for `/`). */
export function pagePath(request: Request): string {
  const { pathname } = new URL(request.url);
  if (pathname === '/_.data' || pathname === '/_root.data') return '/';
  const page = pathname.endsWith('.data') ? pathname.slice(0, -'.data'.length) : pathname;
  return page.length > 1 ? page.replace(/\/+$/, '') : page;
}

import type { Config } from '@react-router/dev/config';
import { prerenderedPaths } from './src/app/site-map';

// Framework mode without a server: public pages are prerendered to real HTML at build time, the rest
// (/app/*) is client-rendered from the SPA fallback, as CloudFront serves them (lib/web-stack.ts).
export default {
  appDirectory: 'src',
  buildDirectory: 'build',
  ssr: false,
  prerender: prerenderedPaths,
} satisfies Config;

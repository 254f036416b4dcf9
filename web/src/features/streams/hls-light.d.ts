// hls.js ships its light build (no subtitles, alternate audio or DRM: a preview needs none of them) without types
// of its own; its API is the full build's.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}

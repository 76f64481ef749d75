// hls.js ships the light build without a types entry of its own; it is the same API as the full build.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}

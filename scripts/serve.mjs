// Serves a built app with our own http.Server so request timeouts suit 2.5 GB uploads
// (Node's default requestTimeout of 300 s would cut a slow upload off).
import http from 'node:http';
import compression from 'compression';
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REQUEST_TIMEOUT_MS = 4 * 60 * 60 * 1000;

// Each request runs with its Node response in this store, so the media delivery route can
// wait for 'drain' (Astro's writeResponse does not); see src/server/media/node-response.ts.
const responses = (globalThis[Symbol.for('studio.nodeResponse')] ??= new AsyncLocalStorage());

// Cached public pages are answered before Astro's pipeline (src/server/page-cache.ts
// registers the function once the bundle has loaded it).
const PAGE_CACHE_FAST_PATH = Symbol.for('studio.pageCacheFastPath');

// gzip/brotli for text (HTML, CSS, JS, JSON, SVG); media types are not compressible and
// range requests are left alone so byte offsets stay meaningful.
const compress = compression({
  threshold: 1024,
  filter: (req, res) => !req.headers.range && compression.filter(req, res),
});

export async function serve({ outDir, port, host }) {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.ASTRO_NODE_LOGGING = 'disabled';
  const { handler } = await import(pathToFileURL(path.join(outDir, 'server', 'entry.mjs')).href);
  const server = http.createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: 60_000, keepAliveTimeout: 5_000 },
    (req, res) => compress(req, res, () => dispatch(req, res)),
  );
  function dispatch(req, res) {
    // Astro's own check answers a bare-text 400; give the app's JSON error shape and headers.
    try {
      decodeURI(req.url ?? '/');
    } catch {
      res.writeHead(400, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      });
      res.end(JSON.stringify({ message: 'Malformed URL' }));
      return;
    }
    const fastPath = globalThis[PAGE_CACHE_FAST_PATH];
    if (!fastPath || (req.method !== 'GET' && req.method !== 'HEAD')) return responses.run(res, () => handler(req, res));
    fastPath(req, res).then(
      (served) => served || responses.run(res, () => handler(req, res)),
      () => responses.run(res, () => handler(req, res)),
    );
  }
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

// Serves a built app with our own http.Server so request timeouts suit 2.5 GB uploads
// (Node's default requestTimeout of 300 s would cut a slow upload off).
import http from 'node:http';
import compression from 'compression';
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REQUEST_TIMEOUT_MS = 4 * 60 * 60 * 1000;
/**
 * How long an idle keep-alive connection stays open. Proxies and clients reuse theirs for up to
 * 60 s (Caddy, Traefik, cloud load balancers): a server that closes first races their next
 * request ("other side closed", EPIPE). The shipped nginx closes its own at 60 s
 * (deploy/nginx/studio.conf). Node wants the headers timeout above it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;
/** How long a stopping process lets the requests it is answering finish before it exits. */
const STOP_GRACE_MS = 3000;

// Each request runs with its Node response in this store, so the media delivery route can
// wait for 'drain' (Astro's writeResponse does not); see src/server/media/node-response.ts.
const responses = (globalThis[Symbol.for('studio.nodeResponse')] ??= new AsyncLocalStorage());

// With METRICS_TOKEN set, src/server/metrics/registry.ts puts its observer here: every request is
// counted once it has been answered (or dropped), by route class, method and status (issue 56).
const REQUEST_OBSERVER = Symbol.for('studio.metrics.request');

function observe(req, res) {
  const observer = globalThis[REQUEST_OBSERVER];
  if (!observer) return;
  const started = process.hrtime.bigint();
  res.once('close', () => {
    // 499: the client went away before the answer was complete (nginx's name for it).
    const status = res.writableFinished ? res.statusCode : 499;
    observer(req.method ?? 'GET', req.url ?? '/', status, Number(process.hrtime.bigint() - started) / 1e9);
  });
}

// Cached public pages are answered before Astro's pipeline (src/server/page-cache.ts
// registers the function once the bundle has loaded it).
const PAGE_CACHE_FAST_PATH = Symbol.for('studio.pageCacheFastPath');

// gzip/brotli for text (HTML, CSS, JS, JSON, SVG); media types are not compressible and
// range requests are left alone so byte offsets stay meaningful. An X-Accel-Redirect answer
// has no body of its own: nginx sends the file (ACCEL_REDIRECT, src/server/media/delivery.ts).
// An event stream (issue 41) is never compressed: the compressor holds bytes back until it
// has a block, and each message must leave at once.
const compress = compression({
  threshold: 1024,
  filter: (req, res) =>
    !req.headers.range && !res.getHeader('x-accel-redirect') && !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
});

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A JSON error answered before Astro runs, with the headers the middleware would add (the
 * list in src/server/security-headers.ts; tests/api/odd-methods.test.ts keeps them in step).
 */
const RAW_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/**
 * Node's parser refuses methods it does not know (TRACK, BREW ...) before any handler runs,
 * with a bare 400; answer those like every other unknown method. Other parse errors keep
 * Node's usual answers.
 */
function onClientError(err, socket) {
  if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
  if (err.code === 'HPE_INVALID_METHOD') {
    const body = JSON.stringify({ message: 'That method is not allowed' });
    const headers = { ...RAW_HEADERS, Allow: [...KNOWN_METHODS].join(', '), 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
    return socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${head}\r\n\r\n${body}`);
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
}

function rawJson(res, status, message, extra = {}) {
  res.writeHead(status, { ...RAW_HEADERS, ...extra });
  res.end(JSON.stringify({ message }));
}

export async function serve({ outDir, port, host }) {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.ASTRO_NODE_LOGGING = 'disabled';
  const { handler } = await import(pathToFileURL(path.join(outDir, 'server', 'entry.mjs')).href);
  const server = http.createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    (req, res) => compress(req, res, () => dispatch(req, res)),
  );
  server.on('clientError', onClientError);
  function dispatch(req, res) {
    observe(req, res);
    // TRACE, CONNECT and made-up methods: Astro cannot build a Request for some of them and
    // answers a bare-text 500; none of them means anything here.
    if (!KNOWN_METHODS.has(req.method ?? '')) {
      rawJson(res, 405, `${String(req.method).slice(0, 20)} is not allowed`, { Allow: [...KNOWN_METHODS].join(', ') });
      return;
    }
    // Astro's own check answers a bare-text 400; give the app's JSON error shape and headers.
    try {
      decodeURI(req.url ?? '/');
    } catch {
      rawJson(res, 400, 'Malformed URL');
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
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Open event streams would hold the server open: end them (tabs reconnect elsewhere).
    globalThis[Symbol.for('studio.live.closeAll')]?.();
    // Requests being answered finish (up to the grace below); idle connections close now.
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
  };
  // Kept (`on`, not `once`): a module that counts a signal's listeners to decide whether anyone
  // handles it (signal-exit, under proper-lockfile) would otherwise find none once ours had run,
  // and send the signal again, killing the process mid-stop (issue 51).
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return server;
}

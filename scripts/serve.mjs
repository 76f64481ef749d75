// Serves a built app with our own http.Server so request timeouts suit 2.5 GB uploads
// (Node's default requestTimeout of 300 s would cut a slow upload off).
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REQUEST_TIMEOUT_MS = 4 * 60 * 60 * 1000;

export async function serve({ outDir, port, host }) {
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.ASTRO_NODE_LOGGING = 'disabled';
  const { handler } = await import(pathToFileURL(path.join(outDir, 'server', 'entry.mjs')).href);
  const server = http.createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: 60_000, keepAliveTimeout: 5_000 },
    handler,
  );
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

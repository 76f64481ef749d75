// A libSQL client for a database URL: an embedded file, or a libSQL server (sqld) over HTTP.
// Used by the app's connection (client.ts) and by the scripts and backups that open their own.
//
// sqld gzips an answer whenever the request accepts it, and fetch always does: over loopback or
// a local network that costs far more than it saves. Measured with sqld 0.24 on loopback: a
// 4 MB answer 6-9 s gzipped, 0.1-0.5 s plain; a one-row answer 5.3 ms against 1.6 ms (median).
import { createClient, type Client, type Config } from '@libsql/client';

export function isServerUrl(url: string): boolean {
  return /^(libsql|https?|wss?):/i.test(url);
}

function uncompressed(request: Request): Promise<Response> {
  request.headers.set('accept-encoding', 'identity');
  return fetch(request);
}

export function connect(config: Config): Client {
  return createClient(isServerUrl(config.url) ? { ...config, fetch: uncompressed } : config);
}

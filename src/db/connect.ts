// A libSQL client for a database URL: an embedded file, or a libSQL server (sqld).
// Used by the app's connection (client.ts) and by the scripts and backups that open their own.
//
// A server is spoken to over WebSockets (Hrana over ws, on sqld's HTTP port) whatever the URL's
// scheme: in Node, @libsql/client sends `libsql:` and `http:` URLs as one HTTP request per
// statement, which on loopback costs 3.6-4.0 ms a statement against 0.8-1.1 ms over the socket
// (sqld 0.24; 200 inserts and 200 selects in a row; a two-statement transaction 6.8-10.2 ms
// against 1.7-2.1 ms). Requests pay it per statement, so it was most of a server database's
// cost (issue 44). The decision, and that a proxy in front of sqld must pass WebSocket
// upgrades, is in docs/database.md.
import { createClient, type Client, type Config } from '@libsql/client';
import { withReusedStreams } from './stream-pool.ts';

export function isServerUrl(url: string): boolean {
  return /^(libsql|https?|wss?):/i.test(url);
}

/** The WebSocket URL of a server URL: `http:` becomes `ws:`, `https:` `wss:`, `libsql:` either (TLS unless `?tls=0`). */
export function webSocketUrl(url: string): string {
  const m = /^(libsql|https?|wss?):/i.exec(url);
  if (!m) return url;
  const scheme = m[1]!.toLowerCase();
  const rest = url.slice(m[0].length);
  const tls = scheme === 'libsql' ? !/[?&]tls=0(?:&|#|$)/.test(rest) : scheme === 'https' || scheme === 'wss';
  return `${tls ? 'wss' : 'ws'}:${rest}`;
}

/**
 * `reuseStreams: false` for a read replica: a replica that starts over from its primary (after
 * the primary restarts) replaces its database under the connections it has, and a kept stream
 * would go on reading the old one; a stream per statement reads the new one.
 */
export function connect(config: Config, { reuseStreams = true }: { reuseStreams?: boolean } = {}): Client {
  if (!isServerUrl(config.url)) return createClient(config);
  const url = webSocketUrl(config.url);
  const client = createClient({ ...config, url });
  return reuseStreams ? withReusedStreams(client, url, config.authToken, config.intMode) : client;
}

// The shipped nginx's access log keeps no share-link address (issue 40, item 8): a token is a
// key, and a log is read and kept by more people than the database. deploy/nginx/studio.conf
// writes /s/<token>… and /api/share/<token>… with the token masked, in the request line and
// in the Referer, and leaves every other address as it was.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { startNginx, type Nginx } from '../helpers/nginx.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let proxy: Nginx;
let token: string;
let mediaId: number;
const HEALTH_TOKEN = 'nginx-monitor-0d5e8a2c4f6b1d3e5a7c9e0b2d4f6a8c';

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off', TRUST_PROXY: 'true', HEALTH_TOKEN } });
  proxy = await startNginx([server.port]);
  const admin = await staffSession(proxy.url, ADMIN.username, ADMIN.password);
  mediaId = (await uploadImage(admin, { title: 'Logged still' })).id;
  const link = await admin.json('POST', '/api/share-links', { name: 'Logged link', mediaIds: [mediaId] });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  token = new URL(link.body.url).pathname.split('/').pop()!;
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

test('share-link addresses are masked in the request line and the Referer; other addresses are logged as they are', async () => {
  const page = `${proxy.url}/s/${token}`;
  const visitor = new Session(proxy.url);
  const requests: [string, Record<string, string>][] = [
    [`/s/${token}`, {}],
    [`/s/${token}?from=email`, {}],
    [`/api/share/${token}`, { Referer: page }],
    [`/s/${token}/m/${mediaId}/thumb.webp`, { Referer: `${page}?from=email` }],
    [`//s/${token}`, {}],
    ['/robots.txt', { Referer: `${proxy.url}/portfolio` }],
  ];
  const before = proxy.shippedAccessLog().length;
  for (const [path, headers] of requests) {
    const res = await visitor.request('GET', path, undefined, headers);
    await res.arrayBuffer();
    expect(res.status, path).toBeLessThan(500);
  }
  const lines = await until('the access log lines', async () => {
    const all = proxy.shippedAccessLog().slice(before);
    return all.length >= requests.length ? all : null;
  }, 15_000);
  expect(lines.join('\n')).not.toContain(token);
  const requestOf = (line: string) => /"(\S+ \S+) HTTP\/1\.1"/.exec(line)?.[1];
  const refererOf = (line: string) => /^\S+ - \S+ \[[^\]]+\] "[^"]*" \d+ \d+ "([^"]*)"/.exec(line)?.[1];
  expect(lines.map(requestOf)).toEqual([
    'GET /s/[masked]',
    'GET /s/[masked]?from=email',
    'GET /api/share/[masked]',
    `GET /s/[masked]/m/${mediaId}/thumb.webp`,
    'GET //s/[masked]',
    'GET /robots.txt',
  ]);
  expect(lines.map(refererOf)).toEqual([
    '-',
    '-',
    `${proxy.url}/s/[masked]`,
    `${proxy.url}/s/[masked]?from=email`,
    '-',
    `${proxy.url}/portfolio`,
  ]);
}, 60_000);

// Issue 51: how a monitor reads GET /api/health's details through the shipped nginx (a header,
// passed on as sent), and the token stays out of the access log.
test('a monitor sends its token as a header through nginx and gets the details; the log holds no token', async () => {
  const before = proxy.shippedAccessLog().length;
  const anonymous = await fetch(`${proxy.url}/api/health`);
  // No worker runs beside this server: unwell, which anyone may know, but not why.
  expect(anonymous.status).toBe(503);
  expect(await anonymous.json()).toEqual({ ok: false, message: 'Unhealthy' });
  const monitor = await fetch(`${proxy.url}/api/health`, { headers: { Authorization: `Bearer ${HEALTH_TOKEN}` } });
  expect(monitor.status).toBe(503);
  expect(await monitor.json()).toMatchObject({ ok: false, problems: ['no video worker has reported in (start one with WORKER=on or npm run worker)'], worker: { ok: false } });
  const lines = await until('the health lines', async () => {
    const all = proxy.shippedAccessLog().slice(before);
    return all.length >= 2 ? all : null;
  }, 15_000);
  expect(lines.join('\n')).toContain('GET /api/health');
  expect(lines.join('\n')).not.toContain(HEALTH_TOKEN);
});

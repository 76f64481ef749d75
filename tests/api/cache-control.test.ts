// Nothing rendered for a session is stored by browsers or proxies; public answers keep their
// caching (issue 19, item 5). Private media files: tests/api/media-delivery.test.ts.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';

let server: TestServer;
let admin: Session;
let portal: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithPortalLogin(server, 'Cache');
  portal = await clientSession(server.url, c.username, c.password);
});
afterAll(() => server?.stop());

const who = { admin: () => admin, portal: () => portal, anonymous: () => new Session(server.url) };

test.each([
  ['admin', '/admin/dashboard'],
  ['admin', '/admin/media'],
  ['admin', '/admin/users'],
  ['admin', '/admin/roles'],
  ['admin', '/admin/clients'],
  ['admin', '/admin/enquiries'],
  ['admin', '/admin/website-customization'],
  ['portal', '/client/dashboard'],
  ['admin', '/'],
  ['admin', '/about'],
  ['portal', '/contact'],
  ['admin', '/api/user'],
  ['admin', '/api/users'],
  ['admin', '/api/media'],
  ['admin', '/api/enquiries'],
  ['admin', '/api/admin/media/timeline-notes'],
  ['portal', '/api/client/profile'],
  ['portal', '/api/client/media'],
  ['anonymous', '/api/user'],
] as const)('%s GET %s → Cache-Control: private, no-store', async (as, path) => {
  const res = await who[as]().get(path);
  await res.arrayBuffer();
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
});

test.each(['/', '/about', '/portfolio'])('anonymous GET %s keeps its public caching', async (path) => {
  for (let i = 0; i < 2; i++) {
    const res = await who.anonymous().get(path);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  }
});

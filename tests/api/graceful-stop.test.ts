// A web process asked to stop (SIGTERM: systemd's stop, a restart, an upgrade) finishes what it
// is answering, ends its event streams with `closed` "shutdown" (the tabs then reconnect to
// another process) and exits 0 (issue 51). Once it had rendered an admin page it used to die
// by the signal instead: a browser-only module on the server (tus-js-client → proper-lockfile →
// signal-exit) sent SIGTERM again after the app's handler, cutting every stream and request.
import http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';
import { openStream } from '../helpers/sse.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/**
 * A POST whose head is sent with `Expect: 100-continue` and whose body waits: once the server
 * has answered 100 it is handling the request, which stays in flight until `finish`.
 */
async function requestInFlight(session: Session, path: string, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body));
  const req = http.request(session.base + path, {
    method: 'POST',
    agent: false,
    headers: { Origin: session.base, Cookie: session.cookieHeader(), 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), Expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    req.once('continue', resolve);
    req.once('error', reject);
  });
  return { finish: () => (req.end(bytes), answer) };
}

test('SIGTERM after admin pages: the request in flight completes, each stream gets closed "shutdown", the exit code is 0', async () => {
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const other = await staffSession(server.url, ADMIN.username, ADMIN.password);
  // The admin layout is what loaded the browser-only uploader on the server.
  for (const p of ['/admin/dashboard', '/admin/media']) expect((await staff.get(p)).status).toBe(200);
  const streams = [await openStream(staff, '/api/live/stream?as=staff'), await openStream(other, '/api/live/stream?as=staff')];
  const inFlight = await requestInFlight(staff, '/api/clients', { name: 'Late Arrival', email: 'late@clients.test', username: 'late.arrival', password: 'portal-123' });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.proc.once('exit', (code, signal) => resolve({ code, signal })));

  server.proc.kill('SIGTERM');
  // Each stream is told why it ends (so the tab reconnects elsewhere at once)...
  for (const s of streams) expect((await s.waitFor('closed', (m) => m.event === 'closed')).data).toEqual({ reason: 'shutdown' });
  await Promise.all(streams.map((s) => s.whenEnded()));
  // ...the request already being answered is answered in full...
  const answer = await inFlight.finish();
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(answer.body).toMatchObject({ name: 'Late Arrival', username: 'late.arrival' });
  // ...and the process ends of its own accord.
  expect(await exited).toEqual({ code: 0, signal: null });
  const stored = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM clients WHERE email = ?', args: ['late@clients.test'] });
  expect(Number(stored.rows[0]!.n)).toBe(1);
});

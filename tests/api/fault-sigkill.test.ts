// Crash safety: SIGKILL the server in the middle of a burst of writes (portal feedback and
// timeline notes, role creation, enquiries), restart it on the same database, and check the
// file is intact and every write the server acknowledged (2xx) is there.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '@libsql/client';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithPortalLogin, createVideo, type ClientLogin } from '../helpers/portal-fixtures.ts';

let server: TestServer;
let client: ClientLogin;
let mediaId: number;

beforeAll(async () => {
  server = await startServer();
  client = await createClientWithPortalLogin(server, 'Crash');
  mediaId = (await createVideo(server, { title: 'Crash video', clientId: client.clientId, durationSeconds: 600 })).id;
});
afterAll(() => server?.stop());

type Kind = 'feedback' | 'note' | 'role' | 'enquiry';
interface Write {
  kind: Kind;
  marker: string;
}

/** One write of the given kind carrying a unique marker; resolves to whether it was acknowledged. */
async function write(admin: Session, portal: Session, w: Write): Promise<boolean> {
  let res: { status: number };
  switch (w.kind) {
    case 'feedback':
      res = await portal.json('POST', `/api/client/media/${mediaId}/feedback`, { mediaId, feedbackText: w.marker, rating: 4 });
      break;
    case 'note':
      res = await portal.json('POST', `/api/client/media/${mediaId}/timeline-notes`, { mediaId, timestampSeconds: 7, noteText: w.marker });
      break;
    case 'role':
      res = await admin.json('POST', '/api/roles', { name: w.marker, description: 'crash test' });
      break;
    case 'enquiry':
      res = await new Session(server.url).json('POST', '/api/contact', { firstName: 'Crash', lastName: 'Test', email: 'crash@example.test', message: w.marker });
      break;
  }
  return res.status >= 200 && res.status < 300;
}

async function stored(kind: Kind, marker: string): Promise<boolean> {
  const sql = {
    feedback: 'SELECT 1 FROM client_feedback WHERE feedback_text = ?',
    note: 'SELECT 1 FROM timeline_notes WHERE note_text = ?',
    role: 'SELECT 1 FROM roles WHERE name = ?',
    enquiry: 'SELECT 1 FROM enquiries WHERE message = ?',
  }[kind];
  const fresh = createClient({ url: server.databaseUrl });
  try {
    return (await fresh.execute({ sql, args: [marker] })).rows.length === 1;
  } finally {
    fresh.close();
  }
}

describe.each([1, 2])('crash %i: SIGKILL during a burst of writes', (round) => {
  test('the database is intact after restart and every acknowledged write is present', async () => {
    const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const portal = await clientSession(server.url, client.username, client.password);
    const kinds: Kind[] = ['feedback', 'note', 'role', 'feedback', 'note'];
    const acknowledged: Write[] = [];
    let sent = 0;
    let failed = 0;
    let stop = false;
    let enquiries = 0;

    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        // At most 5 enquiries per address per process (rate limit); the rest are portal and role writes.
        const kind: Kind = w === 0 && enquiries < 5 && i % 3 === 0 ? (enquiries++, 'enquiry') : kinds[(w + i) % kinds.length]!;
        const item = { kind, marker: `crash${round}-${kind}-${w}-${i}` };
        sent++;
        try {
          if (await write(admin, portal, item)) acknowledged.push(item);
        } catch {
          failed++; // the connection died with the server: not acknowledged
          return;
        }
      }
    };
    const burst = Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
    // Let the burst get going, then pull the plug while requests are in flight.
    const started = Date.now();
    while (acknowledged.length < 40 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 5));
    await server.kill();
    stop = true;
    await burst;
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(failed).toBeGreaterThan(0); // some requests really were cut off mid-flight

    await server.restart();
    const check = createClient({ url: server.databaseUrl });
    try {
      const integrity = await check.execute('PRAGMA integrity_check');
      expect(integrity.rows.map((r) => Object.values(r)[0])).toEqual(['ok']);
      expect((await check.execute('PRAGMA foreign_key_check')).rows).toEqual([]);
    } finally {
      check.close();
    }
    const missing: string[] = [];
    for (const w of acknowledged) if (!(await stored(w.kind, w.marker))) missing.push(`${w.kind} ${w.marker}`);
    console.info(`crash ${round}: ${sent} writes sent, ${acknowledged.length} acknowledged, ${failed} cut off; all acknowledged present: ${missing.length === 0}`);
    expect(missing, `${missing.length} of ${acknowledged.length} acknowledged writes lost (sent ${sent})`).toEqual([]);

    // And the restarted server works: sessions survived, writes go through.
    const again = new Session(server.url);
    again.cookies = new Map(portal.cookies);
    const after = await again.json('POST', `/api/client/media/${mediaId}/feedback`, { mediaId, feedbackText: `after crash ${round}`, rating: 5 });
    expect(after.status).toBe(201);
  }, 120_000);
});

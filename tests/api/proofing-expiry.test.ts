// Stills proofing (issue 42), expiry and reminders against a real SMTP server (smtp-server): the
// last day ends at midnight UK time (across a clock change too), a reminder N days before goes
// once per date to client logins (at once, or in the digest) and to guests who left an address,
// staff extend (a new date gets its own reminder), and an expired gallery answers 410 saying so
// on every viewer address while staff still see it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { until } from '../helpers/until.ts';
import { decodeHeader, Mailbox, parse } from '../helpers/mailbox.ts';
import { loginEmail, to } from '../helpers/notify.ts';
import { createGallery, enterLink, galleryLink, uploadShots, whenSizesReady } from '../helpers/proofing.ts';

const SITE = 'https://studio.example';
const mailbox = new Mailbox();
let server: TestServer;
let admin: Session;
let now: Session; // immediately
let digest: Session; // digest mode
let nowAddress: string;
let digestAddress: string;
let g: any;
let token: string;
let guest: Session;
const GUEST = 'guest@example.test';
const BOB = 'bob@example.test';

/** A date (YYYY-MM-DD) `days` from today, UK time, and how the emails write it ("4 Dec 2026"). */
function ukDay(days: number) {
  const d = new Date(Date.now() + days * 86_400_000);
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  const words = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T12:00:00Z`));
  return { iso, words };
}
const subjectsTo = (address: string) => to(mailbox.received, address).map((m) => decodeHeader(parse(m.raw).headers.get('subject') ?? ''));

beforeAll(async () => {
  await mailbox.listen();
  server = await startServer({ env: { NOTIFY_POLL_MS: '100', NOTIFY_DIGEST_INTERVAL_MS: '3000', SITE_URL: SITE, SMTP_URL: `smtp://127.0.0.1:${mailbox.port}` } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const a = await createClientWithLogin(server, { name: 'Now Client' });
  const b = await createClientWithLogin(server, { name: 'Digest Client' });
  now = await clientSession(server.url, a.username, a.password);
  digest = await clientSession(server.url, b.username, b.password);
  expect((await digest.json('PUT', '/api/client/notifications', { mode: 'digest' })).status).toBe(200);
  nowAddress = await loginEmail(server, a.clientUserId);
  digestAddress = await loginEmail(server, b.clientUserId);
  g = await createGallery(admin, { title: 'Graduation', mediaIds: await uploadShots(admin, [{ name: 'G_1.jpg', taken: '2026:06:01 12:00:00' }]) });
  await whenSizesReady(admin, g.id);
  await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [a.clientId, b.clientId] });
  // The "shared with you" emails first, so the reminders below are told apart from them.
  await until('the shared emails', async () => subjectsTo(nowAddress).includes('New gallery to view: Graduation'));
  ({ token } = await galleryLink(admin, g.id));
  guest = await enterLink(server.url, token);
  expect((await guest.json('PUT', `/api/share/${token}/gallery/viewer`, { name: 'Aunt May', email: GUEST })).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await mailbox.close();
});

describe('the last day', () => {
  test('ends at midnight UK time, also on the day the clocks go forward; a past day is refused', async () => {
    const spring = await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: '2030-03-31' });
    expect(spring.body.expiresAt).toBe('2030-03-31T23:00:00.000Z'); // midnight BST
    const winter = await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: '2030-12-31' });
    expect(winter.body.expiresAt).toBe('2031-01-01T00:00:00.000Z'); // midnight GMT
    const past = await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: ukDay(-1).iso });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('expiresOn: The last day must be today or later');
    expect((await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: '2030-02-30' })).status).toBe(400);
  });
});

describe('reminders', () => {
  test('none while the last day is further away than the reminder; then once, to every viewer with an address', async () => {
    const last = ukDay(20);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: last.iso, reminderDays: 7 });
    // Moving the reminder to 30 days makes it due: whatever went before it would have gone too.
    await admin.json('PATCH', `/api/galleries/${g.id}`, { reminderDays: 30 });
    const subject = `Graduation closes on ${last.words}`;
    await until('the reminder to the client', async () => subjectsTo(nowAddress).includes(subject));
    await until('the reminder to the guest', async () => subjectsTo(GUEST).includes(subject));
    const mail = parse(to(mailbox.received, nowAddress).find((m) => decodeHeader(parse(m.raw).headers.get('subject')!) === subject)!.raw).body;
    expect(mail).toContain(`The gallery "Graduation" closes at the end of ${last.words} (UK time).`);
    expect(mail).toContain(`Open it in your client portal: ${SITE}/client/galleries/${g.id}`);
    const guestMail = parse(to(mailbox.received, GUEST).at(-1)!.raw).body;
    expect(guestMail).toContain(`Open it: ${SITE}/s/${token}`);
    expect(guestMail).not.toContain('client portal');
    // The digest reader gets it inside the digest, not on its own.
    await until('the digest with the reminder', async () => to(mailbox.received, digestAddress).some((m) => parse(m.raw).body.includes(subject)));
    expect(subjectsTo(digestAddress)).not.toContain(subject);
    expect(subjectsTo(digestAddress).some((s) => /^Daily digest: \d+ updates?$/.test(s))).toBe(true);
  });

  test('staff extend: the new date gets its own reminder, the old one is not sent again', async () => {
    const first = ukDay(20);
    const later = ukDay(25);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: later.iso });
    await until('the reminder for the new date', async () => subjectsTo(nowAddress).includes(`Graduation closes on ${later.words}`));
    await until('the guest’s reminder for the new date', async () => subjectsTo(GUEST).includes(`Graduation closes on ${later.words}`));
    expect(subjectsTo(nowAddress).filter((s) => s.startsWith('Graduation closes on'))).toEqual([`Graduation closes on ${first.words}`, `Graduation closes on ${later.words}`]);
    expect(subjectsTo(GUEST).filter((s) => s.startsWith('Graduation closes on'))).toEqual([`Graduation closes on ${first.words}`, `Graduation closes on ${later.words}`]);
    const rows = await server.sql.execute({ sql: "SELECT count(*) AS n FROM notification_events WHERE kind = 'gallery_expiring'", args: [] });
    expect(Number(rows.rows[0]!.n)).toBe(2);
  });

  test('a guest of a revoked link gets no reminder', async () => {
    const revoked = await galleryLink(admin, g.id, { name: 'Switched off' });
    const bob = await enterLink(server.url, revoked.token);
    expect((await bob.json('PUT', `/api/share/${revoked.token}/gallery/viewer`, { name: 'Uncle Bob', email: BOB })).status).toBe(200);
    expect((await admin.json('DELETE', `/api/share-links/${revoked.id}`)).status).toBe(200);
    const last = ukDay(27);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: last.iso, reminderDays: 30 });
    // The guests' messages are written together: once the other guest's is there, Bob's would be.
    await until('the guest’s reminder for the new date', async () => subjectsTo(GUEST).includes(`Graduation closes on ${last.words}`));
    const toBob = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM notification_outbox WHERE recipient_address = ?', args: [BOB] });
    expect(Number(toBob.rows[0]!.n)).toBe(0);
    expect(to(mailbox.received, BOB)).toEqual([]);
  });
});

describe('expired', () => {
  test('every viewer address answers 410 with the date; the portal lists it as expired; staff extend it', async () => {
    // The API refuses a past day, so the clock is moved the other way: the day is made past here.
    await server.sql.execute({ sql: "UPDATE galleries SET expires_on = '2026-01-09', expires_at = ? WHERE id = ?", args: [Date.parse('2026-01-10T00:00:00Z'), g.id] });
    const message = 'This gallery expired on 9 Jan 2026. Contact the studio if you need more time.';
    const img = g.images[0].id;
    for (const [s, path] of [
      [now, `/api/client/galleries/${g.id}`],
      [now, `/client/galleries/${g.id}/f/${img}/g480.webp`],
      [now, `/client/galleries/${g.id}/zip?size=web1024`],
      [guest, `/api/share/${token}/gallery`],
      [guest, `/s/${token}/g/${img}/g480.webp`],
    ] as const) {
      const r = await s.json('GET', path);
      expect(r.status, path).toBe(410);
      expect(r.body.message).toBe(message);
    }
    expect((await now.json('GET', '/api/client/galleries')).body).toEqual([expect.objectContaining({ id: g.id, expired: true, coverUrl: null })]);
    expect((await admin.json('GET', `/api/galleries/${g.id}`)).body.expired).toBe(true);
    const extended = await admin.json('PATCH', `/api/galleries/${g.id}`, { expiresOn: ukDay(3).iso });
    expect(extended.body.expired).toBe(false);
    expect((await now.json('GET', `/api/client/galleries/${g.id}`)).status).toBe(200);
    expect((await guest.json('GET', `/api/share/${token}/gallery`)).status).toBe(200);
  });
});

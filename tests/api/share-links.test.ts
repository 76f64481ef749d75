// Share links (issue 17): who may make them, the rules of a new link, the token, the password
// throttle (also under 20 parallel tries), expiry and revocation on the next request, every
// permission of a link, watermarked previews (and that nothing clean is reachable through
// such a link), and the access log.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, storedNames, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { sampleVideo, upload, uploadImage } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';
import { watermarkText } from '../../src/shared/schemas/share.ts';

let server: TestServer;
let admin: Session;
let sharer: Session; // share:media + view:media
let viewerOnly: Session; // view:media only
let client: Session;
let video: any;
let image: any;

async function readyVideo(title: string) {
  const r = await upload(admin, { title }, { data: sampleVideo('mp4'), name: 'clip.mp4', type: 'video/mp4' });
  expect(r.status).toBe(201);
  await until(`${title} ready`, async () => (await admin.json('GET', `/api/media/${r.body.id}/processing`)).body.processingStatus === 'ready', 90_000);
  return (await admin.json('GET', '/api/media')).body.find((m: any) => m.id === r.body.id);
}

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const mk = async (permissions: string[]) => {
    const u = await createStaffUser(server, { permissions });
    return staffSession(server.url, u.username, u.password);
  };
  sharer = await mk(['share:media', 'view:media']);
  viewerOnly = await mk(['view:media']);
  const c = await createClientWithLogin(server, { name: 'Agency' });
  client = await clientSession(server.url, c.username, c.password);
  video = await readyVideo('Brand film');
  image = await uploadImage(admin, { title: 'Key still' });
}, 120_000);
afterAll(() => server?.stop());

const BASE = { name: 'For the agency', mediaIds: [] as number[] };
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
async function makeLink(extra: Record<string, unknown> = {}) {
  const r = await sharer.json('POST', '/api/share-links', { ...BASE, mediaIds: [video.id, image.id], ...extra });
  expect(r.status).toBe(201);
  const token = new URL(r.body.url).pathname.split('/').pop()!;
  return { ...r.body, token } as { id: number; token: string; url: string } & Record<string, any>;
}

/** A visitor without an account (own cookies). */
const visitor = () => new Session(server.url);

/** A visitor who has opened the link's page (which is what makes their pass). */
async function enter(token: string): Promise<Session> {
  const v = visitor();
  expect((await v.get(`/s/${token}`)).status).toBe(200);
  return v;
}

/** The link's view once every preview it needs is made (link previews are made by the worker). */
async function viewWhenReady(v: Session, token: string): Promise<any> {
  return until('the link previews', async () => {
    const r = (await v.json('GET', `/api/share/${token}`)).body;
    return r.items.every((i: any) => !i.previewPending) ? r : null;
  }, 90_000).catch((e: Error) => {
    throw new Error(`${e.message}\n${server.output().slice(-3000)}`);
  });
}

/** GET that follows the S3 driver's redirect to a presigned URL, answering the final status and bytes. */
async function fetchFile(s: Session, url: string, headers: Record<string, string> = {}) {
  let res = await s.get(url, headers);
  if (res.status === 302) res = await fetch(res.headers.get('location')!, { headers });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

const logOf = async (id: number) => (await sharer.json('GET', `/api/share-links/${id}/log`)).body.entries as any[];

describe('who may manage share links', () => {
  test.each([
    ['signed out', () => new Session(server.url), 401],
    ['a client', () => client, 401],
    ['staff without share:media', () => viewerOnly, 403],
    ['staff with share:media', () => sharer, 200],
  ] as const)('%s: list %s', async (_who, who, status) => {
    const s = who();
    expect((await s.json('GET', '/api/share-links')).status).toBe(status);
    const created = await s.json('POST', '/api/share-links', { ...BASE, mediaIds: [video.id] });
    expect(created.status).toBe(status === 200 ? 201 : status);
    const id = created.status === 201 ? created.body.id : (await makeLink()).id;
    expect((await s.json('GET', `/api/share-links/${id}/log`)).status).toBe(status);
    expect((await s.json('DELETE', `/api/share-links/${id}`)).status).toBe(status);
    if (status !== 200) expect((await s.json('GET', '/api/share-links')).body.message).toBeTruthy();
  });

  test('the seed gives share:media to Admin and Staff', async () => {
    const rows = await server.sql.execute(`SELECT r.name FROM roles r JOIN role_permissions rp ON rp.role_id = r.id JOIN permissions p ON p.id = rp.permission_id WHERE p.name = 'share:media' AND r.name IN ('Admin', 'Staff', 'Client') ORDER BY r.name`);
    expect(rows.rows.map((r) => r.name)).toEqual(['Admin', 'Staff']);
  });
});

describe('making a link', () => {
  test.each([
    [{ name: '' }, 'name'],
    [{ mediaIds: [] }, 'mediaIds'],
    [{ mediaIds: [987654] }, 'mediaIds'],
    [{ password: 'abc' }, 'password'],
    [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
    [{ expiresAt: 'next tuesday' }, 'expiresAt'],
    [{ watermark: true, download: 'original' }, 'download'],
    [{ download: 'everything' }, 'download'],
    [{ watermarkOpacity: 5 }, 'watermarkOpacity'],
    [{ surprise: true }, 'body'],
  ])('%j: 400 naming %s, nothing stored', async (extra, field) => {
    const before = await server.sql.execute('SELECT count(*) AS n FROM share_links');
    const r = await sharer.json('POST', '/api/share-links', { ...BASE, mediaIds: [video.id], ...extra });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(new RegExp(`^${field === 'body' ? '' : field}`));
    const after = await server.sql.execute('SELECT count(*) AS n FROM share_links');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  test('the token carries at least 128 bits, is shown once, and only its hash is stored', async () => {
    const a = await makeLink();
    const b = await makeLink();
    // 40 base32 characters = 200 bits.
    expect(a.token).toMatch(/^[a-z2-7]{40}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.url).toBe(`${new URL(a.url).origin}/s/${a.token}`);
    const stored = await server.sql.execute({ sql: 'SELECT * FROM share_links WHERE id = ?', args: [a.id] });
    expect(JSON.stringify(stored.rows)).not.toContain(a.token);
    const list = (await sharer.json('GET', '/api/share-links')).body;
    expect(JSON.stringify(list)).not.toContain(a.token);
    expect(list.find((l: any) => l.id === a.id)).toMatchObject({ state: 'active', items: [{ id: video.id }, { id: image.id }], hasPassword: false });
  });
});

describe('opening a link', () => {
  test('without a password: the page opens, the API lists the items, the open is logged', async () => {
    const link = await makeLink();
    const v = visitor();
    const page = await v.get(`/s/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('For the agency');
    const view = await v.json('GET', `/api/share/${link.token}`);
    expect(view.status).toBe(200);
    expect(view.body.items.map((i: any) => i.id)).toEqual([video.id, image.id]);
    // The sample video's proxy is a remux (the original's streams): a link without original
    // downloads plays a re-encoded preview of its own.
    const ready = await viewWhenReady(v, link.token);
    expect(ready.items[0].playbackUrl).toMatch(new RegExp(`^/s/${link.token}/m/${video.id}/lp-[a-f0-9]{24}\\.mp4\\?v=\\d+$`));
    expect((await logOf(link.id)).map((l) => l.action)).toContain('open');
    expect((await sharer.json('GET', '/api/share-links')).body.find((l: any) => l.id === link.id).opens).toBe(1);
  }, 120_000);

  test('an unknown, revoked or expired link is the same plain 404 page', async () => {
    const revoked = await makeLink();
    await sharer.json('DELETE', `/api/share-links/${revoked.id}`);
    const expired = await makeLink();
    await server.sql.execute({ sql: 'UPDATE share_links SET expires_at = ? WHERE id = ?', args: [Date.now() - 1000, expired.id] });
    const bodies: string[] = [];
    for (const token of ['a'.repeat(40), revoked.token, expired.token, 'not-a-token']) {
      const res = await visitor().get(`/s/${token}`);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).toContain('Link not available');
      bodies.push(text.replace(/<script[\s\S]*?<\/script>/g, ''));
    }
    expect(new Set(bodies.slice(0, 3)).size).toBe(1);
  });

  test('revocation and expiry take effect on the next request of a visitor already in', async () => {
    for (const end of ['revoke', 'expire'] as const) {
      const link = await makeLink({ download: 'original' });
      const v = await enter(link.token);
      const view = (await v.json('GET', `/api/share/${link.token}`)).body;
      const file = view.items[0].downloadUrl;
      expect((await fetchFile(v, file)).status).toBe(200);
      if (end === 'revoke') expect((await sharer.json('DELETE', `/api/share-links/${link.id}`)).body.state).toBe('revoked');
      else await server.sql.execute({ sql: 'UPDATE share_links SET expires_at = ? WHERE id = ?', args: [Date.now() - 1, link.id] });
      expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(404);
      expect((await v.get(file)).status).toBe(404);
      expect((await v.get(`/s/${link.token}`)).status).toBe(404);
      expect((await v.json('POST', `/api/share/${link.token}/media/${video.id}/feedback`, { name: 'X', text: 'late', rating: 3 })).status).toBe(404);
    }
  });
});

describe('a password', () => {
  test('is needed before anything: the page shows the form, the API and files say 401', async () => {
    const link = await makeLink({ password: 'open-sesame', download: 'original' });
    const v = visitor();
    const page = await v.get(`/s/${link.token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('This link is protected');
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(401);
    expect((await v.get(`/s/${link.token}/m/${video.id}/original.mp4`)).status).toBe(401);
    expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: 'open-sesame' })).status).toBe(200);
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(200);
    // The pass is for this visitor only.
    expect((await visitor().json('GET', `/api/share/${link.token}`)).status).toBe(401);
    // A pass past its time opens nothing, and is cleared when the next one is made.
    await server.sql.execute({ sql: 'UPDATE share_visits SET expires_at = ? WHERE link_id = ?', args: [Date.now() - 1, link.id] });
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(401);
    expect((await visitor().json('POST', `/api/share/${link.token}/unlock`, { password: 'open-sesame' })).status).toBe(200);
    const left = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM share_visits WHERE expires_at < ?', args: [Date.now()] });
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  test('5 wrong tries per link and address per 15 minutes, then 429 even for the right one', async () => {
    const link = await makeLink({ password: 'open-sesame' });
    const v = visitor();
    for (let i = 0; i < 5; i++) expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: `wrong-${i}` })).status).toBe(401);
    // Another browser at the same address does not reset the count.
    const r = await visitor().json('POST', `/api/share/${link.token}/unlock`, { password: 'open-sesame' });
    expect(r).toMatchObject({ status: 429, body: { message: expect.stringContaining('15 minutes') } });
    // The window passes: the right password works.
    await server.sql.execute({ sql: 'UPDATE login_attempts SET attempted_at = attempted_at - ? WHERE key LIKE ?', args: [15 * 60 * 1000 + 1000, `share:${link.id}@%`] });
    expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: 'open-sesame' })).status).toBe(200);
    expect((await logOf(link.id)).filter((l) => l.action === 'wrong password')).toHaveLength(5);
  });

  /**
   * Password verifications counted by what they cost. A refused try and a wrong one answer
   * alike whether or not the password was verified, and the log is written after the check, so
   * neither tells how many were checked. The links get an argon2id hash of the same password at
   * many passes, which makes each verification a measurable slice of the server process's CPU
   * time (its own, whatever else the machine runs), measured once on five wrong tries at once
   * on a gauge link (all let through). Every request here comes from 127.0.0.1: one address.
   */
  let gauge: Promise<{ hash: string; msEach: number }> | undefined;
  const cpuMs = () => {
    const stat = fs.readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS; // utime + stime
  };
  /**
   * The server's own CPU is the measure, so nothing else of its work may run meanwhile: the
   * conversions earlier tests queued (on the S3 driver the server itself uploads their outputs)
   * are waited out first.
   */
  const queueIdle = () =>
    until('no conversion queued or running', async () => !(await server.sql.execute("SELECT 1 FROM jobs WHERE status IN ('queued', 'running') LIMIT 1")).rows.length, 180_000);
  async function costlyLink() {
    await queueIdle();
    gauge ??= (async () => {
      const hash = await argon2.hash('open-sesame', { algorithm: 2, memoryCost: 19456, timeCost: 30, parallelism: 1 } as never);
      const g = await makeLink({ password: 'open-sesame' });
      await server.sql.execute({ sql: 'UPDATE share_links SET password_hash = ? WHERE id = ?', args: [hash, g.id] });
      const t0 = cpuMs();
      const five = await Promise.all(Array.from({ length: 5 }, (_, i) => visitor().json('POST', `/api/share/${g.token}/unlock`, { password: `gauge-${i}` })));
      expect(five.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
      const fiveVerified = cpuMs() - t0;
      expect(fiveVerified).toBeGreaterThan(500);
      return { hash, msEach: fiveVerified / 5 };
    })();
    const { hash, msEach } = await gauge;
    const link = await makeLink({ password: 'open-sesame' });
    await server.sql.execute({ sql: 'UPDATE share_links SET password_hash = ? WHERE id = ?', args: [hash, link.id] });
    /** The answers to `tries` sent at once, and about how many passwords the server verified for them. */
    const triedAtOnce = async (tries: string[]) => {
      await queueIdle();
      const t0 = cpuMs();
      const answers = await Promise.all(tries.map((password) => visitor().json('POST', `/api/share/${link.token}/unlock`, { password })));
      return { statuses: answers.map((a) => a.status), verified: (cpuMs() - t0) / msEach };
    };
    return { link, triedAtOnce };
  }

  test('20 wrong tries at once: never more than 5 are checked', { timeout: 120_000 }, async () => {
    const { link, triedAtOnce } = await costlyLink();
    const { statuses, verified } = await triedAtOnce(Array.from({ length: 20 }, (_, i) => `guess-${i}`));
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(20);
    expect((await logOf(link.id)).filter((l) => l.action === 'wrong password').length).toBeLessThanOrEqual(5);
    // What the server spent: about five verifications (twenty when the refused tries are checked
    // too). The 15 refusals cost some CPU of their own (more on a busy machine: 8.3 with two CPU
    // hogs beside the suite), so the line is drawn at 12, well below the twenty of the bug.
    expect(verified, `${statuses.join(' ')}: about ${verified.toFixed(1)} verifications`).toBeLessThan(12);
  });

  test('20 tries at once from one address, the right password among them: at most 5 passwords are verified', { timeout: 120_000 }, async () => {
    const { link, triedAtOnce } = await costlyLink();
    const { statuses, verified } = await triedAtOnce(Array.from({ length: 20 }, (_, i) => (i === 7 ? 'open-sesame' : `guess-${i}`)));
    expect(statuses.filter((s) => s === 200 || s === 401 || s === 429)).toHaveLength(20);
    const log = await logOf(link.id);
    // What the answers and the log show: no more than 5 tries were let through to the check.
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(5);
    expect(log.filter((l) => l.action === 'wrong password' || l.action === 'unlock').length).toBe(statuses.filter((s) => s !== 429).length);
    // What the server spent: about as much as on the five (four times that when the refused
    // tries were verified too; the line at 12 as above).
    expect(verified, `${statuses.join(' ')}: about ${verified.toFixed(1)} verifications`).toBeLessThan(12);
  });
});

describe('what a link allows', () => {
  test('a view-only link cannot comment, note, approve or download', async () => {
    const link = await makeLink();
    const v = await enter(link.token);
    const view = await viewWhenReady(v, link.token);
    expect(view).toMatchObject({ allowComment: false, allowApprove: false, download: 'none' });
    expect(view.items.every((i: any) => i.downloadUrl === null)).toBe(true);
    const t = link.token;
    expect((await v.json('POST', `/api/share/${t}/media/${video.id}/feedback`, { name: 'Pat', text: 'Nice', rating: 4 })).status).toBe(403);
    expect((await v.json('POST', `/api/share/${t}/media/${video.id}/timeline-notes`, { name: 'Pat', text: 'Here', timestampSeconds: 1 })).status).toBe(403);
    expect((await v.json('PUT', `/api/share/${t}/media/${video.id}/approval`, { name: 'Pat', status: 'approved', version: 1 })).status).toBe(403);
    for (const variant of ['original.mp4', '720p.mp4', '720p.mp4?download=1', 'original.mp4?download=1', 'full.webp']) {
      expect((await v.get(`/s/${t}/m/${video.id}/${variant}`)).status).toBe(404);
    }
    // Viewing is allowed: the link's preview plays (the item's remuxed proxy is withheld above).
    expect((await fetchFile(v, view.items[0].playbackUrl)).status).toBe(200);
    expect((await fetchFile(v, `${view.items[0].playbackUrl}&download=1`)).status).toBe(404);
    // An item not in the link is not reachable through it.
    const other = await uploadImage(admin, { title: 'Not shared' });
    expect((await v.get(`/s/${t}/m/${other.id}/thumb.jpg`)).status).toBe(404);
  });

  test('a comment link: feedback and notes under the guest name typed once; staff see them with the link', async () => {
    const link = await makeLink({ allowComment: true });
    const v = await enter(link.token);
    const t = link.token;
    const noName = await v.json('POST', `/api/share/${t}/media/${video.id}/timeline-notes`, { text: 'Logo too early', timestampSeconds: 1.7 });
    expect(noName).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^name: /) } });
    const note = await v.json('POST', `/api/share/${t}/media/${video.id}/timeline-notes`, { name: 'Sam Producer', text: 'Logo too early', timestampSeconds: 1.7 });
    expect(note).toMatchObject({ status: 201, body: { guestName: 'Sam Producer', kind: 'note', timestampSeconds: 1, versionNumber: 1 } });
    // The name is remembered for the visit.
    const fb = await v.json('POST', `/api/share/${t}/media/${video.id}/feedback`, { text: 'Lovely grade', rating: 5 });
    expect(fb).toMatchObject({ status: 201, body: { guestName: 'Sam Producer', kind: 'feedback', rating: 5 } });
    expect((await v.json('POST', `/api/share/${t}/media/${video.id}/timeline-notes`, { text: 'Past the end', timestampSeconds: 500 })).status).toBe(400);
    // A still takes a note only at 0 (for a drawing on it, issue 29): any other time is refused.
    expect((await v.json('POST', `/api/share/${t}/media/${image.id}/timeline-notes`, { text: 'On a still', timestampSeconds: 1 })).status).toBe(400);
    const view = (await v.json('GET', `/api/share/${t}`)).body;
    expect(view.comments.map((c: any) => c.text)).toEqual(['Logo too early', 'Lovely grade']);
    // Another link's visitors do not see them.
    const otherToken = (await makeLink()).token;
    const otherView = (await (await enter(otherToken)).json('GET', `/api/share/${otherToken}`)).body;
    expect(otherView.comments).toEqual([]);
    const staff = await admin.json('GET', `/api/media/${video.id}/share-comments`);
    expect(staff.status).toBe(200);
    expect(staff.body.filter((c: any) => c.linkName === 'For the agency').map((c: any) => [c.guestName, c.text])).toEqual(
      expect.arrayContaining([['Sam Producer', 'Logo too early'], ['Sam Producer', 'Lovely grade']]),
    );
    expect((await client.json('GET', `/api/media/${video.id}/share-comments`)).status).toBe(401);
    // Staff hear of it in the bell, named with the link.
    const bell = (await admin.json('GET', '/api/notifications')).body;
    expect(bell.events.map((e: any) => e.summary)).toEqual(
      expect.arrayContaining([
        'Sam Producer left a timeline note on "Brand film" v1 (through a share link)',
        'Sam Producer left feedback on "Brand film" v1 (through a share link)',
      ]),
    );
    const actions = (await logOf(link.id)).map((l) => [l.action, l.guestName, l.mediaTitle]);
    expect(actions).toEqual(expect.arrayContaining([['note', 'Sam Producer', 'Brand film'], ['comment', 'Sam Producer', 'Brand film']]));
  });

  test('an approve link decides on the current version under the guest name; a lock wins', async () => {
    const item = await readyVideo('Approval cut');
    const link = await makeLink({ mediaIds: [item.id], allowApprove: true });
    const v = await enter(link.token);
    const t = link.token;
    expect((await v.json('PUT', `/api/share/${t}/media/${item.id}/approval`, { name: 'Ana', status: 'changes_requested', version: 1 })).status).toBe(400);
    const ok = await v.json('PUT', `/api/share/${t}/media/${item.id}/approval`, { name: 'Ana', status: 'approved', version: 1 });
    expect(ok).toMatchObject({ status: 200, body: { status: 'approved', version: 1, by: 'Ana' } });
    const versions = (await admin.json('GET', `/api/media/${item.id}/versions`)).body;
    expect(versions[0].approval).toMatchObject({ status: 'approved', by: 'Ana (share link)' });
    expect((await admin.json('GET', '/api/media')).body.find((m: any) => m.id === item.id).approvalStatus).toBe('approved');
    expect((await admin.json('PUT', `/api/media/${item.id}/versions/${versions[0].id}/lock`, { locked: true })).status).toBe(200);
    expect((await v.json('PUT', `/api/share/${t}/media/${item.id}/approval`, { status: 'changes_requested', note: 'Wait', version: 1 })).status).toBe(409);
    expect((await logOf(link.id)).map((l) => l.action)).toContain('approved');
  });

  test('preview downloads give the proxy, never the original; original downloads give the exact file', async () => {
    // A source that is transcoded: its proxy is a real re-encode, so "preview" offers it.
    const webm = await upload(admin, { title: 'Transcoded cut' }, { data: sampleVideo('webm'), name: 'cut.webm', type: 'video/webm' });
    await until('webm ready', async () => (await admin.json('GET', `/api/media/${webm.body.id}/processing`)).body.processingStatus === 'ready', 90_000);
    const preview = await makeLink({ download: 'preview', mediaIds: [webm.body.id] });
    const v = await enter(preview.token);
    const items = (await v.json('GET', `/api/share/${preview.token}`)).body.items;
    expect(items[0].downloadUrl).toMatch(/720p\.mp4\?download=1$/);
    const got = await fetchFile(v, items[0].downloadUrl);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain('attachment');
    // Named after the item, not the proxy's file name (issue 32).
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="Transcoded cut (preview).mp4"; filename*=UTF-8''Transcoded%20cut%20%28preview%29.mp4`);
    expect((await v.get(`/s/${preview.token}/m/${webm.body.id}/original.webm?download=1`)).status).toBe(404);
    expect((await v.get(`/s/${preview.token}/m/${webm.body.id}/original.webm`)).status).toBe(404);

    const original = await makeLink({ download: 'original' });
    const w = await enter(original.token);
    const first = (await w.json('GET', `/api/share/${original.token}`)).body.items[0];
    const file = await fetchFile(w, first.downloadUrl);
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.bytes, sampleVideo('mp4'))).toBe(0);
    expect(file.headers.get('content-disposition')).toContain('filename="Brand film.mp4"');
    const log = await logOf(original.id);
    expect(log.filter((l) => l.action === 'download')).toHaveLength(1);
    expect(log.find((l) => l.action === 'download')).toMatchObject({ detail: 'original', mediaTitle: 'Brand film', ip: expect.stringMatching(/127\.0\.0\.1/) });
  });

  /** The H.264 elementary stream of an MP4, as bytes: equal for a remux, different for a re-encode. */
  function videoStream(bytes: Buffer): Buffer {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vs-'));
    const file = path.join(dir, 'in.mp4');
    fs.writeFileSync(file, bytes);
    const out = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-bsf:v', 'h264_mp4toannexb', '-f', 'h264', '-'], { maxBuffer: 1 << 26 });
    fs.rmSync(dir, { recursive: true, force: true });
    return out;
  }

  test.each(['none', 'preview'] as const)(
    'a "%s" link never hands out the original streams or a full-size image: a remuxed video plays a re-encode, images are at most 2,048 px',
    async (download) => {
      const big = await upload(
        admin,
        { title: `Wide still ${download}` },
        { data: await sharp({ create: { width: 3840, height: 1600, channels: 3, background: '#446688' } }).jpeg().toBuffer(), name: 'wide.jpg', type: 'image/jpeg' },
      );
      expect(big.status).toBe(201);
      const link = await makeLink({ download, mediaIds: [video.id, big.body.id] });
      const v = await enter(link.token);
      const [vid, img] = (await viewWhenReady(v, link.token)).items;
      // The item's own proxy is the original's stream byte for byte (a remux)...
      const remux = (await fetchFile(admin, video.renditions[0].url)).bytes;
      expect(Buffer.compare(videoStream(remux), videoStream(sampleVideo('mp4')))).toBe(0);
      // ...and is withheld; the link plays its own re-encode.
      expect(vid.renditions).toEqual([]);
      expect(vid.playbackUrl).toMatch(/\/lp-[a-f0-9]{24}\.mp4\?v=\d+$/);
      for (const f of ['720p.mp4', 'original.mp4']) expect((await v.get(`/s/${link.token}/m/${video.id}/${f}`)).status, f).toBe(404);
      const played = await fetchFile(v, vid.playbackUrl);
      expect(played.status).toBe(200);
      expect(Buffer.compare(videoStream(played.bytes), videoStream(sampleVideo('mp4')))).not.toBe(0);
      // Images: the full-size WebP and the original are withheld; the link shows at most 2,048 px.
      for (const f of ['full.webp', 'original.jpg']) expect((await v.get(`/s/${link.token}/m/${big.body.id}/${f}`)).status, f).toBe(404);
      const shown = await fetchFile(v, img.imageUrl);
      expect(shown.status).toBe(200);
      const meta = await sharp(shown.bytes).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(2048);
      expect(meta.width).toBe(2048);
      if (download === 'preview') {
        expect(vid.downloadUrl).toBe(`${vid.playbackUrl}&download=1`);
        expect(img.downloadUrl).toBe(`${img.imageUrl}&download=1`);
        const got = await fetchFile(v, vid.downloadUrl);
        expect(Buffer.compare(got.bytes, played.bytes)).toBe(0);
      } else {
        expect([vid.downloadUrl, img.downloadUrl]).toEqual([null, null]);
        expect((await v.get(`${vid.playbackUrl}&download=1`)).status).toBe(404);
      }
    },
  );
});

/** Mean absolute difference of two grey frames inside a box (fractions of width and height). */
function frameDiff(a: Buffer, b: Buffer, w: number, h: number, box: [number, number, number, number]): number {
  const [x0, y0, x1, y1] = [Math.floor(box[0] * w), Math.floor(box[1] * h), Math.floor(box[2] * w), Math.floor(box[3] * h)];
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++, n++) sum += Math.abs(a[y * w + x]! - b[y * w + x]!);
  return sum / n;
}

function greyFrame(bytes: Buffer, ext: string, w: number, h: number): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-'));
  const file = path.join(dir, `in.${ext}`);
  fs.writeFileSync(file, bytes);
  const out = execFileSync('ffmpeg', ['-v', 'error', '-ss', '1', '-i', file, '-frames:v', '1', '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 24 });
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

describe('a watermarked link', () => {
  let link: Awaited<ReturnType<typeof makeLink>>;
  let v: Session;
  let view: any;
  beforeAll(async () => {
    link = await makeLink({ watermark: true, download: 'preview', watermarkPosition: 'bottom-right', watermarkOpacity: 100, name: 'Label review' });
    v = await enter(link.token);
    view = await until('the watermarked previews', async () => {
      const r = (await v.json('GET', `/api/share/${link.token}`)).body;
      return r.items.every((i: any) => !i.previewPending) ? r : null;
    }, 90_000).catch((e: Error) => {
      // The worker's log says why a preview was not made.
      throw new Error(`${e.message}\n${server.output().slice(-3000)}`);
    });
  }, 120_000);

  test('plays and downloads only its preview, with the text burned in where asked', async () => {
    const [vid, img] = view.items;
    const key = (await server.sql.execute({ sql: 'SELECT file_key FROM share_links WHERE id = ?', args: [link.id] })).rows[0]!.file_key as string;
    expect(key).toMatch(/^[a-f0-9]{24}$/);
    expect(vid.playbackUrl).toMatch(new RegExp(`/s/${link.token}/m/${video.id}/lp-${key}\\.mp4\\?v=\\d+$`));
    expect(vid).toMatchObject({ renditions: [], spriteUrl: null, posterUrl: null });
    expect(img.imageUrl).toMatch(new RegExp(`/lp-${key}\\.jpg\\?v=\\d+$`));
    const marked = await fetchFile(v, vid.playbackUrl);
    expect(marked.status).toBe(200);
    const clean = await fetchFile(admin, video.renditions[0].url);
    const [w, h] = [160, 120];
    const a = greyFrame(marked.bytes, 'mp4', w, h);
    const b = greyFrame(clean.bytes, 'mp4', w, h);
    const corner = frameDiff(a, b, w, h, [0.5, 0.8, 1, 1]);
    const elsewhere = frameDiff(a, b, w, h, [0, 0, 0.5, 0.5]);
    expect(corner).toBeGreaterThan(8);
    expect(corner).toBeGreaterThan(elsewhere * 4);
    const download = await fetchFile(v, vid.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    // The link's own `lp-{key}` copy downloads under the item's name, never the file key (issue 32).
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Brand film (preview).mp4"; filename*=UTF-8''Brand%20film%20%28preview%29.mp4`);
    expect(download.headers.get('content-disposition')).not.toContain(key);
    const still = await fetchFile(v, img.downloadUrl);
    expect(still.headers.get('content-disposition')).toContain('filename="Key still (preview).jpg"');
  });

  test('new links put the watermark top right, clear of the player controls; the default text never says "Preview" twice', async () => {
    const fresh = await makeLink({ watermark: true, download: 'none', name: 'Brand film preview' });
    const row = (await server.sql.execute({ sql: 'SELECT watermark_position FROM share_links WHERE id = ?', args: [fresh.id] })).rows[0]!;
    expect(row.watermark_position).toBe('top-right');
    expect(watermarkText('', 'Brand film preview')).toBe('Brand film preview');
    expect(watermarkText('', 'Previews for Acme')).toBe('Previews for Acme');
    expect(watermarkText('', 'Label review')).toBe('Preview - Label review');
    expect(watermarkText('  Draft  ', 'Preview cut')).toBe('Draft');
    // The link made above asked for bottom right and keeps it.
    expect((await server.sql.execute({ sql: 'SELECT watermark_position FROM share_links WHERE id = ?', args: [link.id] })).rows[0]!.watermark_position).toBe('bottom-right');
    await sharer.json('DELETE', `/api/share-links/${fresh.id}`);
  });

  test('no clean file is reachable by any address', async () => {
    const clean = ['original.mp4', '720p.mp4', 'poster.jpg', 'poster.webp', 'thumb.jpg', 'thumb.webp', 'sprite.jpg', 'sprite.vtt'];
    for (const variant of clean) {
      for (const q of ['', '?download=1']) expect((await v.get(`/s/${link.token}/m/${video.id}/${variant}${q}`)).status, variant + q).toBe(404);
    }
    for (const variant of ['original.jpg', 'full.webp', 'thumb.jpg', 'thumb.webp']) expect((await v.get(`/s/${link.token}/m/${image.id}/${variant}`)).status).toBe(404);
    // The item's own /media addresses are private to the visitor (no account), as is another link's preview.
    expect((await v.get(video.renditions[0].url)).status).toBe(404);
    expect((await v.get(video.url)).status).toBe(404);
    const other = await makeLink({ watermark: true, download: 'preview', mediaIds: [video.id] });
    const otherKey = (await server.sql.execute({ sql: 'SELECT file_key FROM share_links WHERE id = ?', args: [other.id] })).rows[0]!.file_key as string;
    expect((await v.get(`/s/${link.token}/m/${video.id}/lp-${otherKey}.mp4`)).status).toBe(404);
  });

  test("its preview files are not public, even of an item on the site: only staff fetch them under /media", async () => {
    const img = view.items[1];
    const name = img.imageUrl.split('/').pop()!.split('?')[0];
    const key = image.url.split('/')[2];
    expect((await admin.json('PUT', `/api/media/${image.id}`, { showInPortfolio: true })).status).toBe(200);
    try {
      // The item's own files are public now...
      expect((await visitor().get(image.thumbnailUrl)).status).toBe(200);
      // ...its link preview is not, to anyone without the link.
      expect((await visitor().get(`/media/${key}/${name}`)).status).toBe(404);
      expect((await client.get(`/media/${key}/${name}`)).status).toBe(404);
      const staff = await fetchFile(admin, `/media/${key}/${name}`);
      expect(staff.status).toBe(200);
      if (staff.headers.get('cache-control')) expect(staff.headers.get('cache-control')).not.toContain('public');
      // The old, guessable name answers nothing.
      expect((await admin.get(`/media/${key}/wm-${link.id}.jpg`)).status).toBe(404);
    } finally {
      await admin.json('PUT', `/api/media/${image.id}`, { showInPortfolio: false });
    }
  });

  test('a new version gets its own preview once it is converted', async () => {
    const { createUpload, patchUpload } = await import('../helpers/tus.ts');
    const data = sampleVideo('mp4');
    const { id } = await createUpload(admin, data.length, { filename: 'cut-2.mp4' });
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    expect((await admin.json('POST', `/api/media/${video.id}/versions`, { uploadId: id })).status).toBe(201);
    const next = await until('v2 preview', async () => {
      const r = (await v.json('GET', `/api/share/${link.token}`)).body.items[0];
      return r.version === 2 && !r.previewPending ? r : null;
    }, 90_000);
    expect(next.playbackUrl).toMatch(/\/lp-[a-f0-9]{24}\.mp4\?v=\d+$/);
    expect((await fetchFile(v, next.playbackUrl)).status).toBe(200);
    expect(next.playbackUrl).not.toBe(view.items[0].playbackUrl);
  }, 120_000);
});

describe('a change of look (issue 40)', () => {
  test('the old preview names stop answering with the edit, not when the new previews are made; the new ones come under new names', async () => {
    // A clean "preview" link shows an image through a plain copy of its own.
    const link = await makeLink({ download: 'preview', mediaIds: [image.id], name: 'Look test' });
    const v = await enter(link.token);
    const storageKey = image.url.split('/')[2];
    const fileOf = (url: string) => url.split('?')[0]!.split('/').pop()!;
    const clean = (await viewWhenReady(v, link.token)).items[0];
    expect(clean.imageUrl).toMatch(/\/lp-[a-f0-9]{24}\.jpg\?v=\d+$/);
    const cleanBytes = await fetchFile(v, clean.imageUrl);
    expect(cleanBytes.status).toBe(200);
    expect(await storedNames(server, storageKey)).toContain(fileOf(clean.imageUrl));

    // Switched to watermarked: the clean copy's name answers nothing from the next request on,
    // whatever the worker has done by then, and the file is gone.
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { watermark: true })).status).toBe(200);
    for (const q of [clean.imageUrl.slice(clean.imageUrl.indexOf('?')), '', '?download=1']) {
      expect((await v.get(`/s/${link.token}/m/${image.id}/${fileOf(clean.imageUrl)}${q}`)).status, q).toBe(404);
    }
    expect(await storedNames(server, storageKey)).not.toContain(fileOf(clean.imageUrl));
    const marked = (await viewWhenReady(v, link.token)).items[0];
    expect(fileOf(marked.imageUrl)).toMatch(/^lp-[a-f0-9]{24}\.jpg$/);
    expect(fileOf(marked.imageUrl)).not.toBe(fileOf(clean.imageUrl));
    const markedBytes = await fetchFile(v, marked.imageUrl);
    expect(markedBytes.status).toBe(200);
    expect(markedBytes.bytes.equals(cleanBytes.bytes)).toBe(false);
    expect((await v.get(`/s/${link.token}/m/${image.id}/${fileOf(clean.imageUrl)}`)).status).toBe(404);

    // A new text: the copy with the old one stops at once too.
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { watermarkText: 'Second look' })).status).toBe(200);
    expect((await v.get(marked.imageUrl)).status).toBe(404);
    const again = (await viewWhenReady(v, link.token)).items[0];
    expect(fileOf(again.imageUrl)).not.toBe(fileOf(marked.imageUrl));
    expect((await fetchFile(v, again.imageUrl)).status).toBe(200);
    // An edit that leaves the look alone keeps the names.
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { allowComment: true })).status).toBe(200);
    expect((await v.json('GET', `/api/share/${link.token}`)).body.items[0].imageUrl).toBe(again.imageUrl);
  }, 120_000);
});

describe('a client set to watermarked previews', () => {
  let marked: Awaited<ReturnType<typeof createClientWithLogin>>;
  let markedSession: Session;
  let plainSession: Session;
  let item: any;
  let still: any;
  beforeAll(async () => {
    marked = await createClientWithLogin(server, { name: 'Label Records' });
    const plain = await createClientWithLogin(server, { name: 'Plain Client' });
    markedSession = await clientSession(server.url, marked.username, marked.password);
    plainSession = await clientSession(server.url, plain.username, plain.password);
    item = await readyVideo('Label single');
    still = await uploadImage(admin, { title: 'Label cover' });
    for (const c of [marked, plain]) {
      for (const m of [item, still]) expect((await admin.json('POST', `/api/media/${m.id}/clients/${c.clientId}`)).status).toBe(201);
    }
  }, 120_000);

  test.each([
    ['signed out', () => new Session(server.url), 401],
    ['a client', () => plainSession, 401],
    ['staff without edit:clients', () => sharer, 403],
  ] as const)('switching it needs edit:clients: %s gets %i', async (_who, who, status) => {
    expect((await who().json('PUT', `/api/clients/${marked.clientId}/watermark`, { watermark: true })).status).toBe(status);
    expect((await admin.json('GET', '/api/clients')).body.find((c: any) => c.id === marked.clientId).watermarkPreviews).toBe(false);
  });

  test('the client then plays and downloads only marked copies; the clean files are refused; another client is unaffected; off again restores them', async () => {
    const clean = (await markedSession.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
    expect((await fetchFile(markedSession, clean.playbackUrl)).status).toBe(200);

    expect((await admin.json('PUT', `/api/clients/${marked.clientId}/watermark`, { watermark: 'yes' })).status).toBe(400);
    expect((await admin.json('PUT', `/api/clients/${marked.clientId}/watermark`, { watermark: true, opacity: 5 })).status).toBe(400);
    expect((await admin.json('PUT', `/api/clients/${marked.clientId}/watermark`, { watermark: true })).body).toEqual({ watermark: true, text: '', position: 'top-right', opacity: 60 });
    expect((await admin.json('GET', '/api/clients')).body.find((c: any) => c.id === marked.clientId).watermarkPreviews).toBe(true);
    // It is not a link anyone was sent: the share-links list does not show it.
    expect((await sharer.json('GET', '/api/share-links')).body.some((l: any) => l.name === 'Label Records')).toBe(false);

    const shown = await until('the client previews', async () => {
      const list = (await markedSession.json('GET', '/api/client/media')).body;
      const [v, i] = [list.find((m: any) => m.id === item.id), list.find((m: any) => m.id === still.id)];
      return v.playbackUrl && i.thumbnailUrl ? { v, i } : null;
    }, 90_000);
    expect(shown.v.playbackUrl).toMatch(/\/lp-[a-f0-9]{24}\.mp4\?v=\d+$/);
    expect(shown.v).toMatchObject({ renditions: [], spriteUrl: null, posterUrl: null, thumbnailUrl: null });
    expect(shown.v.url).toBe(shown.v.playbackUrl);
    expect(shown.i.url).toMatch(/\/lp-[a-f0-9]{24}\.jpg\?v=\d+$/);
    const marked1 = await fetchFile(markedSession, shown.v.playbackUrl);
    expect(marked1.status).toBe(200);
    // The text is burned in (top right by default, clear of the player's controls) where the
    // clean proxy has none; the bottom corners, under the controls, are untouched.
    const cleanBytes = (await fetchFile(admin, item.renditions[0].url)).bytes;
    const [a, b] = [greyFrame(marked1.bytes, 'mp4', 160, 120), greyFrame(cleanBytes, 'mp4', 160, 120)];
    expect(frameDiff(a, b, 160, 120, [0.5, 0, 1, 0.2])).toBeGreaterThan(frameDiff(a, b, 160, 120, [0, 0.5, 1, 1]) * 4);
    // Every clean file is refused to this client, by any address.
    for (const url of [item.url, item.renditions[0].url, item.posterUrl, item.thumbnailUrl, item.spriteUrl, still.url, still.webpUrl, still.thumbnailUrl]) {
      expect((await markedSession.get(url)).status, url).toBe(404);
    }
    // ...and by name, every clean kind of file there is, in every version's folder (not only
    // the addresses the API happens to hand out).
    const CLEAN_KINDS = ['original.mp4', 'original.jpg', '720p.mp4', '1080p.mp4', 'poster.jpg', 'poster.webp', 'thumb.jpg', 'thumb.webp', 'full.webp', 'sprite.jpg', 'sprite.vtt'];
    const folders = await server.sql.execute({ sql: 'SELECT storage_key FROM media_versions WHERE media_id IN (?, ?)', args: [item.id, still.id] });
    expect(folders.rows.length).toBeGreaterThanOrEqual(2);
    for (const { storage_key } of folders.rows) {
      for (const kind of CLEAN_KINDS) {
        for (const q of ['', '?download=1']) expect((await markedSession.get(`/media/${storage_key}/${kind}${q}`)).status, `${kind}${q}`).toBe(404);
      }
    }
    // The preview is this client's alone: another client of the same item, a visitor without
    // an account and staff without view:media are refused it; staff who see the library are not.
    expect((await plainSession.get(shown.v.playbackUrl)).status).toBe(404);
    expect((await visitor().get(shown.v.playbackUrl)).status).toBe(404);
    expect((await fetchFile(admin, shown.v.playbackUrl)).status).toBe(200);
    // The versions list and the live state name the preview too.
    const versions = (await markedSession.json('GET', `/api/client/media/${item.id}/versions`)).body;
    expect(versions[0].playbackUrl).toBe(shown.v.playbackUrl);
    const live = (await markedSession.json('GET', `/api/client/media/${item.id}/processing`)).body;
    expect(live).toMatchObject({ playbackUrl: shown.v.playbackUrl, renditions: [], spriteUrl: null });
    // Another client of the same item still sees the clean proxy.
    const other = (await plainSession.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
    expect(other.playbackUrl).toMatch(/720p\.mp4/);
    expect((await fetchFile(plainSession, other.playbackUrl)).status).toBe(200);

    // A newly assigned image gets its preview at once.
    const later = await uploadImage(admin, { title: 'Later still', clientId: String(marked.clientId) });
    const laterShown = await until('the new item preview', async () => {
      const m = (await markedSession.json('GET', '/api/client/media')).body.find((x: any) => x.id === later.id);
      return m?.thumbnailUrl ? m : null;
    }, 60_000);
    expect(laterShown.url).toMatch(/\/lp-[a-f0-9]{24}\.jpg\?v=\d+$/);

    // Its look can change: every preview is made again, with the text where asked.
    const look = { watermark: true, text: 'Label copy - not for release', position: 'top-left', opacity: 100 };
    expect((await admin.json('PUT', `/api/clients/${marked.clientId}/watermark`, look)).body).toEqual(look);
    expect((await admin.json('GET', `/api/clients/${marked.clientId}/watermark`)).body).toEqual(look);
    const moved = await until('the remade preview', async () => {
      const v = (await markedSession.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
      return v.playbackUrl && v.playbackUrl !== shown.v.playbackUrl ? v : null;
    }, 90_000);
    const [c, d] = [greyFrame((await fetchFile(markedSession, moved.playbackUrl)).bytes, 'mp4', 160, 120), greyFrame(cleanBytes, 'mp4', 160, 120)];
    expect(frameDiff(c, d, 160, 120, [0, 0, 0.5, 0.2])).toBeGreaterThan(frameDiff(c, d, 160, 120, [0.5, 0.8, 1, 1]) * 4);

    expect((await admin.json('PUT', `/api/clients/${marked.clientId}/watermark`, { watermark: false })).body).toMatchObject({ watermark: false });
    const back = (await markedSession.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
    expect(back.playbackUrl).toMatch(/720p\.mp4/);
    expect((await fetchFile(markedSession, back.playbackUrl)).status).toBe(200);
  });
});

describe('hardening (issue 31)', () => {
  test('share:media alone shares only what its holder may see; unknown and unseen ids get the same answer', async () => {
    const shareOnly = await staffSession(server.url, ...(await (async () => {
      const u = await createStaffUser(server, { permissions: ['share:media'] });
      return [u.username, u.password] as const;
    })()));
    const hidden = await uploadImage(admin, { title: 'Unreleased still' });
    const onSite = await uploadImage(admin, { title: 'Portfolio still' });
    expect((await admin.json('PUT', `/api/media/${onSite.id}`, { showInPortfolio: true })).status).toBe(200);
    const before = (await server.sql.execute('SELECT count(*) AS n FROM share_links')).rows[0]!.n;
    const unseen = await shareOnly.json('POST', '/api/share-links', { ...BASE, mediaIds: [hidden.id], download: 'original' });
    const unknown = await shareOnly.json('POST', '/api/share-links', { ...BASE, mediaIds: [hidden.id + 100_000], download: 'original' });
    expect(unseen).toEqual({ status: 400, body: { message: `mediaIds: No media item ${hidden.id}` } });
    expect(unknown).toEqual({ status: 400, body: { message: `mediaIds: No media item ${hidden.id + 100_000}` } });
    // Mixed with a public item, the private one still refuses the whole link.
    expect((await shareOnly.json('POST', '/api/share-links', { ...BASE, mediaIds: [onSite.id, hidden.id] })).status).toBe(400);
    expect((await server.sql.execute('SELECT count(*) AS n FROM share_links')).rows[0]!.n).toBe(before);
    // What the public sees anyway may be shared.
    expect((await shareOnly.json('POST', '/api/share-links', { ...BASE, mediaIds: [onSite.id] })).status).toBe(201);
    // With view:media the whole library may be.
    expect((await sharer.json('POST', '/api/share-links', { ...BASE, mediaIds: [hidden.id] })).status).toBe(201);
  });

  test("visitors see their own link's decision in full, and only the status of anyone else's", async () => {
    const c = await createClientWithLogin(server, { name: 'Decider Ltd' });
    const portal = await clientSession(server.url, c.username, c.password);
    const item = await uploadImage(admin, { title: 'Decided still', clientId: String(c.clientId) });
    const decided = await portal.json('PUT', `/api/client/media/${item.id}/approval`, { status: 'changes_requested', note: 'Secret budget remark', version: 1 });
    expect(decided.status).toBe(200);
    const link = await makeLink({ mediaIds: [item.id], allowApprove: true });
    const v = await enter(link.token);
    const seen = (await v.json('GET', `/api/share/${link.token}`)).body.items[0].approval;
    expect(seen).toMatchObject({ status: 'changes_requested', by: null, note: null });
    expect(JSON.stringify((await v.json('GET', `/api/share/${link.token}`)).body)).not.toContain('Secret budget remark');
    // Their own decision they see in full; another link's visitor sees the status alone.
    expect((await v.json('PUT', `/api/share/${link.token}/media/${item.id}/approval`, { name: 'Robin', status: 'changes_requested', note: 'Crop tighter', version: 1 })).status).toBe(200);
    expect((await v.json('GET', `/api/share/${link.token}`)).body.items[0].approval).toMatchObject({ status: 'changes_requested', by: 'Robin', note: 'Crop tighter' });
    const other = await makeLink({ mediaIds: [item.id] });
    const w = await enter(other.token);
    expect((await w.json('GET', `/api/share/${other.token}`)).body.items[0].approval).toMatchObject({ status: 'changes_requested', by: null, note: null });
  });

  test('a visitor decides only on the version they saw: version required (400), stale (409)', async () => {
    const item = await uploadImage(admin, { title: 'Two cuts' });
    const link = await makeLink({ mediaIds: [item.id], allowApprove: true });
    const v = await enter(link.token);
    const path = `/api/share/${link.token}/media/${item.id}/approval`;
    expect(await v.json('PUT', path, { name: 'Kim', status: 'approved' })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^version: /) } });
    const { createUpload, patchUpload } = await import('../helpers/tus.ts');
    const data = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const { id } = await createUpload(admin, data.length, { filename: 'v2.jpg' });
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    expect((await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id })).status).toBe(201);
    expect(await v.json('PUT', path, { name: 'Kim', status: 'approved', version: 1 })).toMatchObject({ status: 409, body: { message: expect.stringContaining('v2') } });
    expect((await admin.json('GET', `/api/media/${item.id}/versions`)).body.map((x: any) => x.approval.status)).toEqual(['in_review', 'in_review']);
    expect((await v.json('PUT', path, { name: 'Kim', status: 'approved', version: 2 })).status).toBe(200);
  });

  test('wrong passwords are counted per link and address (5) and per link (50 an hour)', async () => {
    const link = await makeLink({ password: 'open-sesame' });
    const from = (address: string) => new Session(server.url, address);
    const unlock = (s: Session, password: string) => s.json('POST', `/api/share/${link.token}/unlock`, { password });
    const guesser = from('127.0.10.1');
    for (let i = 0; i < 5; i++) expect((await unlock(guesser, `wrong-${i}`)).status).toBe(401);
    expect((await unlock(guesser, 'open-sesame')).status).toBe(429);
    // The real visitor elsewhere is not locked out by it.
    expect((await unlock(from('127.0.10.2'), 'open-sesame')).status).toBe(200);
    // Nine more addresses bring the link to 50 failures: then every address waits.
    await Promise.all(Array.from({ length: 9 }, (_, i) => from(`127.0.11.${i + 1}`)).map(async (s) => {
      for (let i = 0; i < 5; i++) expect((await unlock(s, `wrong-${i}`)).status).toBe(401);
    }));
    expect((await unlock(from('127.0.12.1'), 'open-sesame')).status).toBe(429);
    expect((await logOf(link.id)).filter((l) => l.action === 'wrong password')).toHaveLength(50);
  });

  test('a browser that entered the password before gets past guessers who fill the link bar (issue 40); the 429 says the true wait; a new password forgets it', async () => {
    const link = await makeLink({ password: 'open-sesame' });
    const from = (address: string) => new Session(server.url, address);
    const unlock = (s: Session, password: string) => s.json('POST', `/api/share/${link.token}/unlock`, { password });
    const waitOf = (message: string) => Number(/wait (\d+) minutes? /.exec(message)?.[1]);
    const pass = `studio_share_${link.id}`;
    const device = `studio_device_share_${link.id}`;
    const [owner, colleague] = [from('127.0.30.1'), from('127.0.30.2')];
    for (const s of [owner, colleague]) {
      expect((await unlock(s, 'open-sesame')).status).toBe(200);
      expect(s.cookies.get(device)).toMatch(/^[a-z2-7]{40}$/);
    }
    // Their passes end (at most 7 days); the device cookie stays and opens nothing by itself.
    owner.cookies.delete(pass);
    expect((await owner.json('GET', `/api/share/${link.token}`)).status).toBe(401);
    // Guessers from 10 addresses fill the link's bar of 50 an hour.
    await Promise.all(Array.from({ length: 10 }, (_, i) => from(`127.0.31.${i + 1}`)).map(async (s) => {
      for (let i = 0; i < 5; i++) expect((await unlock(s, `wrong-${i}`)).status).toBe(401);
    }));
    const stranger = await unlock(from('127.0.32.1'), 'open-sesame');
    expect(stranger.status).toBe(429);
    // The bar lasts an hour from the first of those failures, and the message says so.
    expect(waitOf(stranger.body.message), stranger.body.message).toBeGreaterThan(45);
    expect(waitOf(stranger.body.message)).toBeLessThanOrEqual(60);
    // The owner's browser is counted on its own: the right password opens the link again.
    expect((await unlock(owner, 'open-sesame')).status).toBe(200);
    expect((await owner.json('GET', `/api/share/${link.token}`)).status).toBe(200);
    // ...5 wrong tries per 15 minutes, like anyone's.
    owner.cookies.delete(pass);
    for (let i = 0; i < 5; i++) expect((await unlock(owner, `slip-${i}`)).status).toBe(401);
    const own = await unlock(owner, 'open-sesame');
    expect(own.status).toBe(429);
    expect(waitOf(own.body.message)).toBeGreaterThan(10);
    expect(waitOf(own.body.message)).toBeLessThanOrEqual(15);
    // A new password forgets the devices that knew the old one: the colleague waits with everyone.
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { password: 'second-sesame' })).status).toBe(200);
    expect((await unlock(colleague, 'second-sesame')).status).toBe(429);
    const left = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM trusted_devices WHERE account = ?', args: [`share:${link.id}`] });
    expect(Number(left.rows[0]!.n)).toBe(0);
  }, 120_000);

  test('every transfer of a downloadable file from byte 0 is logged, whatever the address says; later ranges are not', async () => {
    const link = await makeLink({ download: 'original', mediaIds: [image.id] });
    const v = await enter(link.token);
    const file = `/s/${link.token}/m/${image.id}/original.jpg`;
    const downloads = async () => (await logOf(link.id)).filter((l) => l.action === 'download').length;
    const cases: [Record<string, string>, string, boolean][] = [
      [{}, '', true],
      [{ Range: 'bytes=0-' }, '', true],
      [{ Range: 'bytes=0-99' }, '?download=1', true],
      [{ Range: 'bytes=-999999999' }, '', true],
      [{ Range: 'bytes=100-' }, '', false],
      [{ Range: 'bytes=100-199' }, '?download=1', false],
    ];
    for (const [headers, query, logged] of cases) {
      const before = await downloads();
      const res = await fetchFile(v, file + query, headers);
      expect([200, 206]).toContain(res.status);
      expect(await downloads(), JSON.stringify([headers, query])).toBe(before + (logged ? 1 : 0));
    }
    // A file the link only shows is no download: playing a poster logs nothing.
    const before = await downloads();
    expect((await fetchFile(v, `/s/${link.token}/m/${image.id}/thumb.jpg`)).status).toBe(200);
    expect(await downloads()).toBe(before);
  });

  test('a visit is made only by opening the page: one "open" an hour however often it is reloaded, none by the API or files', async () => {
    const link = await makeLink();
    const visits = async () => Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM share_visits WHERE link_id = ?', args: [link.id] })).rows[0]!.n);
    // Requests without the cookie are refused and write nothing.
    for (const path of [`/api/share/${link.token}`, `/s/${link.token}/m/${image.id}/thumb.jpg`]) {
      const r = await visitor().json('GET', path);
      expect(r.status).toBe(401);
      expect(r.body.message).toMatch(/Open the link first/);
    }
    expect(await visits()).toBe(0);
    const v = await enter(link.token);
    for (let i = 0; i < 25; i++) expect((await v.get(`/s/${link.token}`)).status).toBe(200);
    expect(await visits()).toBe(1);
    const opens = async () => (await logOf(link.id)).filter((l) => l.action === 'open').length;
    expect(await opens()).toBe(1);
    await server.sql.execute({ sql: 'UPDATE share_visits SET last_open_at = ? WHERE link_id = ?', args: [Date.now() - 61 * 60_000, link.id] });
    expect((await v.get(`/s/${link.token}`)).status).toBe(200);
    expect(await opens()).toBe(2);
  });

  test('one address may start only so many visits; the page says so with 429, other addresses carry on', async () => {
    const link = await makeLink();
    const page = (from: string) => new Session(server.url, from).get(`/s/${link.token}`);
    for (let i = 0; i < 100; i++) expect((await page('127.0.13.1')).status).toBe(200);
    const refused = await page('127.0.13.1');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many visits from your address');
    expect((await page('127.0.13.2')).status).toBe(200);
    expect(Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM share_visits WHERE link_id = ?', args: [link.id] })).rows[0]!.n)).toBe(101);
  });

  test('the access log is paged with a cursor: every row once, newest first, however many are added', async () => {
    const link = await makeLink();
    const values = Array.from({ length: 450 }, (_, i) => `(${link.id}, 'open', '127.0.0.1', '', 'row ${i}', ${Date.now() - (450 - i) * 1000})`).join(',');
    await server.sql.execute(`INSERT INTO share_access_log (link_id, action, ip, guest_name, detail, created_at) VALUES ${values}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: { status: number; body: any } = await sharer.json('GET', `/api/share-links/${link.id}/log${cursor ? `?cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.entries.map((e: any) => e.detail));
      cursor = r.body.nextCursor;
      pages++;
      // A row written meanwhile is newer: it never shifts the pages still to come.
      if (pages === 1) await server.sql.execute({ sql: "INSERT INTO share_access_log (link_id, action, detail) VALUES (?, 'open', 'new')", args: [link.id] });
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => `row ${449 - i}`));
    expect(await sharer.json('GET', `/api/share-links/${link.id}/log?cursor=abc`)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^cursor/) } });
  });
});

// The audit log (issue 56): every audited kind writes its row with who, from where and on which
// object (table-driven); the chain names the first edited or deleted row (npm run audit:verify);
// two processes writing at once keep it whole; the screen's filters page by keyset; CSV; and
// view:audit guards it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { verifyAudit as verify } from '../helpers/audit.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { ACTORS, REFUSAL, adminSession, createClientAccount, createStaff, expectStatus, matrixSessions, unique, type Actor } from '../helpers/accounts.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { enterLink, galleryLink, createGallery } from '../helpers/proofing.ts';
import { enrolTotp, nextCode, totpCode } from '../helpers/second-factor.ts';

let server: TestServer;
let admin: Session;
let adminId: string;

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off' } });
  admin = await adminSession(server.url);
  adminId = (await admin.json('GET', '/api/user')).body.id;
});
afterAll(() => server?.stop());

interface Row {
  id: number;
  kind: string;
  actorType: string;
  actorKey: string;
  actorName: string;
  ip: string | null;
  agent: string;
  objectType: string | null;
  objectId: string | null;
  objectName: string;
  factor: string | null;
  detail: string;
}

async function newest(kind: string): Promise<Row | undefined> {
  const r = await admin.json('GET', `/api/audit?kind=${kind}&limit=1`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.rows[0];
}

const staffKey = () => `staff:${adminId}`;

type Case = [kind: string, act: () => Promise<{ actorKey?: string; actorType?: string; objectType: string | null; objectId?: string; nameHas?: string; factor?: string }>];

async function newMedia() {
  return (await uploadImage(admin, { title: unique('Frame ') })) as { id: number; url: string; title: string };
}

/** A permission name of letters only ("view:" and lower-case letters). */
const permissionName = () => `view:${unique('x').replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`;

async function newLink(extra: Record<string, unknown> = {}) {
  const m = await newMedia();
  const link = await expectStatus(admin.json('POST', '/api/share-links', { name: unique('Cut '), mediaIds: [m.id], ...extra }), 201);
  return { link, media: m };
}

const CASES: Case[] = [
  ['sign_in.succeeded', async () => {
    const s = await createStaff(admin, []);
    await staffSession(server.url, s.username, s.password);
    return { actorKey: `staff:${s.user.id}`, objectType: 'user', objectId: s.user.id, factor: 'password' };
  }],
  ['sign_in.failed', async () => {
    const s = await createStaff(admin, []);
    expect((await new Session(server.url).json('POST', '/api/login', { username: s.username, password: 'wrong-password' })).status).toBe(401);
    return { actorKey: `staff:${s.user.id}`, objectType: 'user', objectId: s.user.id, factor: 'password' };
  }],
  ['sign_in.throttled', async () => {
    const login = unique('nobody');
    const guest = new Session(server.url);
    for (let i = 0; i < 5; i++) expect((await guest.json('POST', '/api/login', { username: login, password: 'wrong-password' })).status).toBe(401);
    expect((await guest.json('POST', '/api/login', { username: login, password: 'wrong-password' })).status).toBe(429);
    return { actorKey: 'anonymous', actorType: 'anonymous', objectType: null, nameHas: login };
  }],
  ['user.created', async () => {
    const s = await createStaff(admin, []);
    return { actorKey: staffKey(), objectType: 'user', objectId: s.user.id };
  }],
  ['user.updated', async () => {
    const s = await createStaff(admin, []);
    await expectStatus(admin.json('PUT', `/api/users/${s.user.id}`, { ...s.user, displayName: 'Renamed', isActive: false }));
    return { actorKey: staffKey(), objectType: 'user', objectId: s.user.id, nameHas: 'Renamed' };
  }],
  ['user.roles_changed', async () => {
    const s = await createStaff(admin, []);
    return { actorKey: staffKey(), objectType: 'user', objectId: s.user.id };
  }],
  ['user.second_factor_reset', async () => {
    const s = await createStaff(admin, []);
    await enrolTotp(await staffSession(server.url, s.username, s.password));
    await expectStatus(admin.json('DELETE', `/api/users/${s.user.id}/second-factor`));
    return { actorKey: staffKey(), objectType: 'user', objectId: s.user.id, nameHas: s.username };
  }],
  ['client.second_factor_reset', async () => {
    const c = await createClientAccount(admin);
    await enrolTotp(await clientSession(server.url, c.username, c.password), '/api/client/second-factor');
    await expectStatus(admin.json('DELETE', `/api/clients/${c.client.id}/second-factor`));
    return { actorKey: staffKey(), objectType: 'client', objectId: String(c.client.id), nameHas: c.client.name };
  }],
  ['user.deleted', async () => {
    const s = await createStaff(admin, []);
    await expectStatus(admin.json('DELETE', `/api/users/${s.user.id}`));
    return { actorKey: staffKey(), objectType: 'user', objectId: s.user.id };
  }],
  ['role.created', async () => {
    const role = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Editors '), description: '' }), 201);
    return { actorKey: staffKey(), objectType: 'role', objectId: String(role.id) };
  }],
  ['role.updated', async () => {
    const role = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Editors '), description: '' }), 201);
    await expectStatus(admin.json('PUT', `/api/roles/${role.id}`, { name: unique('Cutters '), description: 'cut' }));
    return { actorKey: staffKey(), objectType: 'role', objectId: String(role.id) };
  }],
  ['role.deleted', async () => {
    const role = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Editors '), description: '' }), 201);
    await expectStatus(admin.json('DELETE', `/api/roles/${role.id}`));
    return { actorKey: staffKey(), objectType: 'role', objectId: String(role.id) };
  }],
  ['permission.created', async () => {
    const p = await expectStatus(admin.json('POST', '/api/permissions', { name: permissionName(), description: '' }), 201);
    return { actorKey: staffKey(), objectType: 'permission', objectId: String(p.id) };
  }],
  ['permission.granted', async () => {
    const s = await createStaff(admin, ['view:media']);
    return { actorKey: staffKey(), objectType: 'role', objectId: String(s.role.id) };
  }],
  ['permission.revoked', async () => {
    const s = await createStaff(admin, ['view:media']);
    const perms: { id: number; name: string }[] = await expectStatus(admin.json('GET', '/api/permissions'));
    await expectStatus(admin.json('DELETE', `/api/roles/${s.role.id}/permissions/${perms.find((p) => p.name === 'view:media')!.id}`));
    return { actorKey: staffKey(), objectType: 'role', objectId: String(s.role.id) };
  }],
  ['permission.deleted', async () => {
    const p = await expectStatus(admin.json('POST', '/api/permissions', { name: permissionName(), description: '' }), 201);
    await expectStatus(admin.json('DELETE', `/api/permissions/${p.id}`));
    return { actorKey: staffKey(), objectType: 'permission', objectId: String(p.id) };
  }],
  ['client.created', async () => {
    const { client } = await createClientAccount(admin);
    return { actorKey: staffKey(), objectType: 'client', objectId: String(client.id) };
  }],
  ['client.updated', async () => {
    const { client } = await createClientAccount(admin);
    await expectStatus(admin.json('PUT', `/api/clients/${client.id}`, { name: client.name, email: client.email, phone: '999', company: client.company, notes: client.notes }));
    return { actorKey: staffKey(), objectType: 'client', objectId: String(client.id) };
  }],
  ['client.password_reset', async () => {
    const { client } = await createClientAccount(admin);
    await expectStatus(admin.json('PUT', `/api/clients/${client.id}/reset-password`, { password: 'fresh-pass-1' }));
    return { actorKey: staffKey(), objectType: 'client', objectId: String(client.id) };
  }],
  ['client.deleted', async () => {
    const { client } = await createClientAccount(admin);
    await expectStatus(admin.json('DELETE', `/api/clients/${client.id}`));
    return { actorKey: staffKey(), objectType: 'client', objectId: String(client.id) };
  }],
  ['share_link.created', async () => {
    const { link } = await newLink();
    return { actorKey: staffKey(), objectType: 'share_link', objectId: String(link.id) };
  }],
  ['share_link.edited', async () => {
    const { link } = await newLink();
    await expectStatus(admin.json('PATCH', `/api/share-links/${link.id}`, { allowComment: true }));
    return { actorKey: staffKey(), objectType: 'share_link', objectId: String(link.id) };
  }],
  ['share_link.address_copied', async () => {
    const { link } = await newLink();
    await expectStatus(admin.json('POST', `/api/share-links/${link.id}/address`));
    return { actorKey: staffKey(), objectType: 'share_link', objectId: String(link.id) };
  }],
  ['share_link.new_address', async () => {
    const { link } = await newLink();
    await expectStatus(admin.json('POST', `/api/share-links/${link.id}/new-address`));
    return { actorKey: staffKey(), objectType: 'share_link', objectId: String(link.id) };
  }],
  ['share_link.revoked', async () => {
    const { link } = await newLink();
    await expectStatus(admin.json('DELETE', `/api/share-links/${link.id}`));
    return { actorKey: staffKey(), objectType: 'share_link', objectId: String(link.id) };
  }],
  ['download.original', async () => {
    const m = await newMedia();
    expect((await admin.get(`${m.url}?download=1`)).status).toBe(200);
    return { actorKey: staffKey(), objectType: 'media', objectId: String(m.id) };
  }],
  ['approval.decided', async () => {
    const { link, media } = await newLink({ allowApprove: true });
    const token = new URL(link.url).pathname.split('/').pop()!;
    const guest = new Session(server.url);
    expect((await guest.get(`/s/${token}`)).status).toBe(200);
    await expectStatus(guest.json('PUT', `/api/share/${token}/media/${media.id}/approval`, { status: 'approved', note: '', version: 1, name: 'Rosa' }));
    return { actorKey: `link:${link.id}`, actorType: 'guest', objectType: 'media', objectId: String(media.id), nameHas: 'Rosa' };
  }],
  ['selection.submitted', async () => {
    const m = await newMedia();
    const g = await createGallery(admin, { title: unique('Wedding '), mediaIds: [m.id] });
    const list = await expectStatus(admin.json('POST', `/api/galleries/${g.id}/lists`, { name: 'Album' }), 201);
    const { token, id: linkId } = await galleryLink(admin, g.id);
    const guest = await enterLink(server.url, token, 'Rosa');
    await expectStatus(guest.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${g.images[0]!.id}`));
    await expectStatus(guest.json('POST', `/api/share/${token}/gallery/lists/${list.id}/submit`));
    return { actorKey: `link:${linkId}`, actorType: 'guest', objectType: 'gallery', objectId: String(g.id), nameHas: 'Rosa' };
  }],
  ['download.gallery', async () => {
    const m = await newMedia();
    const g = await createGallery(admin, { title: unique('Wedding '), mediaIds: [m.id] });
    await expectStatus(admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'original' }));
    const { token, id: linkId } = await galleryLink(admin, g.id);
    const guest = await enterLink(server.url, token, 'Rosa');
    const res = await guest.get(`/s/${token}/g/zip?size=original`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return { actorKey: `link:${linkId}`, actorType: 'guest', objectType: 'gallery', objectId: String(g.id) };
  }],
  ['settings.changed', async () => {
    await expectStatus(admin.json('PUT', '/api/contact-info', { contactPhone: '0116 496 0000' }));
    return { actorKey: staffKey(), objectType: 'settings', objectId: 'contact' };
  }],
  ['live.started', async () => {
    const m = await newMedia();
    const r = await admin.json('POST', `/api/media/${m.id}/live`, {});
    expect([200, 201], JSON.stringify(r.body)).toContain(r.status);
    return { actorKey: staffKey(), objectType: 'media', objectId: String(m.id) };
  }],
  ['audit.exported', async () => {
    const res = await admin.get('/api/audit/csv?kind=user.created');
    expect(res.status).toBe(200);
    await res.text();
    return { actorKey: staffKey(), objectType: 'audit', objectId: 'log' };
  }],
];

describe('each audited kind writes its row', () => {
  test.each(CASES)('%s', async (kind, act) => {
    const before = (await newest(kind))?.id ?? 0;
    const want = await act();
    const row = await newest(kind);
    expect(row, `no ${kind} row`).toBeTruthy();
    expect(row!.id).toBeGreaterThan(before);
    if (want.actorKey) expect(row!.actorKey).toBe(want.actorKey);
    if (want.actorType) expect(row!.actorType).toBe(want.actorType);
    expect(row!.objectType).toBe(want.objectType);
    if (want.objectId) expect(row!.objectId).toBe(want.objectId);
    if (want.nameHas) expect(row!.actorName + row!.objectName).toContain(want.nameHas);
    if (want.factor) expect(row!.factor).toBe(want.factor);
    // From where: the address and a summary of the agent (Node's fetch says "node").
    expect(row!.ip).toBeTruthy();
  }, 60_000);
});

describe('second factors (issue 56)', () => {
  test('a code at the second step is a sign_in.succeeded row of its own, naming the factor, after the password row', async () => {
    const s = await createStaff(admin, []);
    const { secret, recoveryCodes } = await enrolTotp(await staffSession(server.url, s.username, s.password));
    for (const [factor, code] of [['totp', await nextCode(secret)], ['recovery', recoveryCodes[0]!]] as const) {
      const before = (await newest('sign_in.succeeded'))!.id;
      const browser = new Session(server.url);
      expect((await browser.json('POST', '/api/login', { username: s.username, password: s.password })).status).toBe(202);
      const password = (await newest('sign_in.succeeded'))!;
      expect(password).toMatchObject({ actorKey: `staff:${s.user.id}`, factor: 'password' });
      expect(password.id).toBeGreaterThan(before);
      await expectStatus(browser.json('POST', '/api/login/verify', { factor, code, trustBrowser: false }));
      const row = (await newest('sign_in.succeeded'))!;
      expect(row.id).toBeGreaterThan(password.id);
      expect(row).toMatchObject({ actorKey: `staff:${s.user.id}`, actorType: 'staff', objectType: 'user', objectId: s.user.id, factor });
      expect(row.ip).toBeTruthy();
    }
  }, 120_000);

  /** A six-digit code no step near now gives for `secret`: always wrong. */
  function wrongCode(secret: string): string {
    const near = new Set([-2, -1, 0, 1, 2].map((o) => totpCode(secret, o)));
    for (let n = 0; ; n++) {
      const code = String(n).padStart(6, '0');
      if (!near.has(code)) return code;
    }
  }

  test('a wrong code at the second step is a sign_in.failed row naming the factor and the reason; past the limit, sign_in.throttled', async () => {
    const s = await createStaff(admin, []);
    const { secret } = await enrolTotp(await staffSession(server.url, s.username, s.password));
    const browser = new Session(server.url);
    expect((await browser.json('POST', '/api/login', { username: s.username, password: s.password })).status).toBe(202);
    const wrong = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: wrongCode(secret), trustBrowser: false });
    expect(wrong.status).toBe(401);
    const failed = (await newest('sign_in.failed'))!;
    expect(failed).toMatchObject({ actorKey: `staff:${s.user.id}`, actorType: 'staff', objectType: 'user', objectId: s.user.id, factor: 'totp' });
    expect(JSON.parse(failed.detail)).toMatchObject({ as: 'staff', login: s.username, reason: wrong.body.message });
    let last = wrong;
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await browser.json('POST', '/api/login/verify', { factor: 'totp', code: wrongCode(secret), trustBrowser: false });
    expect(last.status).toBe(429);
    expect(await newest('sign_in.throttled')).toMatchObject({ actorKey: `staff:${s.user.id}`, objectType: 'user', objectId: s.user.id, factor: 'totp' });
  }, 60_000);

  test('a client login’s code sign-in is the client’s row; a browser trusted then skips the code with a row whose factor is trusted-browser', async () => {
    const c = await createClientAccount(admin);
    const { secret } = await enrolTotp(await clientSession(server.url, c.username, c.password), '/api/client/second-factor');
    const browser = new Session(server.url);
    expect((await browser.json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(202);
    await expectStatus(browser.json('POST', '/api/client/login/verify', { factor: 'totp', code: await nextCode(secret), trustBrowser: true }));
    expect(await newest('sign_in.succeeded')).toMatchObject({ actorKey: `client:${c.client.id}`, actorType: 'client', objectType: 'client', objectId: String(c.client.id), factor: 'totp' });
    expect((await browser.json('POST', '/api/client/login', { username: c.username, password: c.password })).status).toBe(200);
    const row = (await newest('sign_in.succeeded'))!;
    expect(row).toMatchObject({ actorKey: `client:${c.client.id}`, actorType: 'client', objectType: 'client', objectId: String(c.client.id), factor: 'trusted-browser' });
  }, 60_000);

  test('an account’s own factor changes are rows: added, recovery codes renewed, browsers forgotten, removed', async () => {
    const s = await createStaff(admin, []);
    const own = await staffSession(server.url, s.username, s.password);
    const { secret } = await enrolTotp(own);
    const expectRow = async (kind: string, factor: string) =>
      expect(await newest(kind)).toMatchObject({ actorKey: `staff:${s.user.id}`, actorType: 'staff', objectType: 'user', objectId: s.user.id, factor });
    await expectRow('factor.added', 'totp');
    const renewed = await expectStatus(own.json('POST', '/api/user/second-factor/recovery-codes', { code: await nextCode(secret) }));
    await expectRow('factor.recovery_codes_renewed', 'recovery');
    await expectStatus(own.json('DELETE', '/api/user/second-factor/trusted-browsers'));
    await expectRow('factor.browsers_forgotten', 'trusted-browser');
    // A wrong code for an own change is refused, and the refusal is a row (someone holding only the session is trying codes).
    for (const [path, change] of [['/api/user/second-factor/remove', 'remove'], ['/api/user/second-factor/recovery-codes', 'recovery_codes']] as const) {
      const refused = await own.json('POST', path, { code: wrongCode(secret) });
      expect(refused.status).toBe(401);
      const row = (await newest('factor.proof_refused'))!;
      expect(row).toMatchObject({ actorKey: `staff:${s.user.id}`, actorType: 'staff', objectType: 'user', objectId: s.user.id, factor: 'totp' });
      expect(JSON.parse(row.detail)).toEqual({ change, reason: refused.body.message, throttled: false });
    }
    // A recovery code proves it too (a third code from the app could wait for the next step).
    await expectStatus(own.json('POST', '/api/user/second-factor/remove', { code: renewed.recoveryCodes[0] }));
    await expectRow('factor.removed', 'totp');
  }, 120_000);

  test('a role’s second-factor policy changed is a role.updated row saying so; setting it again writes none', async () => {
    const role = await expectStatus(admin.json('POST', '/api/roles', { name: unique('Editors '), description: '' }), 201);
    await expectStatus(admin.json('PUT', `/api/roles/${role.id}/second-factor`, { required: true }));
    const row = (await newest('role.updated'))!;
    expect(row).toMatchObject({ actorKey: staffKey(), objectType: 'role', objectId: String(role.id) });
    expect(JSON.parse(row.detail)).toEqual({ changed: ['requires_second_factor'], requiresSecondFactor: true });
    await expectStatus(admin.json('PUT', `/api/roles/${role.id}/second-factor`, { required: true }));
    expect((await newest('role.updated'))!.id).toBe(row.id);
  });
});

test('a client sign-in is the client’s row, and a guest’s row names the link', async () => {
  const c = await createClientAccount(admin);
  await clientSession(server.url, c.username, c.password);
  const row = await newest('sign_in.succeeded');
  expect(row).toMatchObject({ actorType: 'client', actorKey: `client:${c.client.id}`, objectType: 'client', objectId: String(c.client.id), factor: 'password' });
  expect(row!.actorName).toContain(c.username);
});

test('the agent is summed up, not stored whole', async () => {
  const s = await createStaff(admin, []);
  const browser = new Session(server.url);
  const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0';
  await browser.request('POST', '/api/login', { username: s.username, password: s.password }, { 'User-Agent': ua });
  expect((await newest('sign_in.succeeded'))!.agent).toBe('Firefox 141 on Linux');
});

describe('filters and keyset paging', () => {
  test('pages by id, newest first, without gaps or repeats; filters by person, kind and object', async () => {
    const s = await createStaff(admin, []);
    const guest = new Session(server.url);
    for (let i = 0; i < 7; i++) await guest.json('POST', '/api/login', { username: s.username, password: `wrong-${i}` }).catch(() => {});
    const actor = `staff:${s.user.id}`;
    const seen: number[] = [];
    let before: string | null = null;
    do {
      const page: { rows: Row[]; next: string | null } = await expectStatus(admin.json('GET', `/api/audit?actor=${actor}&kind=sign_in.failed&limit=2${before ? `&before=${before}` : ''}`));
      for (const r of page.rows) expect(r).toMatchObject({ actorKey: actor, kind: 'sign_in.failed' });
      seen.push(...page.rows.map((r) => r.id));
      before = page.next;
    } while (before);
    expect(seen.length).toBe(5);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    const byObject: { rows: Row[] } = await expectStatus(admin.json('GET', `/api/audit?objectType=user&objectId=${s.user.id}&limit=200`));
    expect(byObject.rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['user.created', 'sign_in.failed', 'sign_in.throttled']));
  });

  test('dates are UK days, both included', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const rows: { rows: Row[] } = await expectStatus(admin.json('GET', `/api/audit?from=${today}&to=${today}&limit=5`));
    expect(rows.rows.length).toBe(5);
    const none: { rows: Row[] } = await expectStatus(admin.json('GET', '/api/audit?to=2020-01-01'));
    expect(none.rows).toEqual([]);
  });

  test.each([
    ['kind', 'kind=nonsense'],
    ['actor', 'actor=someone'],
    ['from', 'from=yesterday'],
    ['objectType', 'objectId=5'],
  ])('a bad %s answers 400 naming it', async (field, q) => {
    const r = await admin.json('GET', `/api/audit?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(field);
  });

  test('CSV holds every filtered row with a header', async () => {
    const res = await admin.get('/api/audit/csv?kind=user.created');
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,when \(UTC\),kind,what,/);
    const count = Number((await server.sql.execute("SELECT count(*) AS n FROM audit_log WHERE kind = 'user.created'")).rows[0]!.n);
    expect(lines.length - 1).toBe(count);
    expect(lines.slice(1).every((l) => l.includes(',user.created,User created,'))).toBe(true);
  });
});

describe('view:audit', () => {
  let sessions: Record<Actor, Session>;
  beforeAll(async () => {
    sessions = await matrixSessions(server.url, 'view:audit');
  });
  test.each(ACTORS.flatMap((actor) => ['/api/audit', '/api/audit/people', '/api/audit/csv'].map((p) => [p, actor] as const)))('GET %s as %s', async (p, actor) => {
    const res = await sessions[actor].get(p);
    expect(res.status).toBe(REFUSAL[actor] ?? 200);
  });
  test('the screen is guarded too', async () => {
    expect((await sessions['staff without it'].get('/admin/audit')).status).toBe(403);
    expect((await sessions['staff with it'].get('/admin/audit')).status).toBe(200);
  });
});

describe('the chain', () => {
  test('audit:verify passes on the whole log', async () => {
    const r = await verify(server.databaseUrl);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Audit log whole: \d+ rows checked/);
  });

  /** Damages the live log, runs audit:verify, then puts the row back as it was. */
  async function damaged(damage: (id: number) => string, victimOf: (head: number) => number) {
    const head = Number((await server.sql.execute('SELECT head_id AS head FROM audit_state')).rows[0]!.head);
    const victim = victimOf(head);
    const saved = (await server.sql.execute({ sql: 'SELECT * FROM audit_log WHERE id = ?', args: [victim] })).rows[0]!;
    await server.sql.execute(damage(victim));
    try {
      return { victim, ...(await verify(server.databaseUrl)) };
    } finally {
      const cols = Object.keys(saved).filter((k) => Number.isNaN(Number(k)));
      await server.sql.execute({ sql: 'DELETE FROM audit_log WHERE id = ?', args: [victim] });
      await server.sql.execute({ sql: `INSERT INTO audit_log (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, args: cols.map((c) => saved[c] as never) });
    }
  }

  test.each([
    ['an edited row', (id: number) => `UPDATE audit_log SET actor_name = 'someone else' WHERE id = ${id}`, /row \d+ was changed/],
    ['a row edited and given a new hash', (id: number) => `UPDATE audit_log SET kind = 'user.created', hash = '${'a'.repeat(64)}' WHERE id = ${id}`, /row \d+ was changed/],
    ['a deleted row', (id: number) => `DELETE FROM audit_log WHERE id = ${id}`, /row \d+ is missing \(deleted\)/],
  ])('%s is named by audit:verify', async (_what, damage, reason) => {
    const r = await damaged(damage, (head) => Math.max(2, Math.floor(head / 2)));
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`Audit log broken at row ${r.victim}:`);
    expect(r.out).toMatch(reason);
    expect((await verify(server.databaseUrl)).code).toBe(0);
  });

  test('a row deleted from the end is named too', async () => {
    const r = await damaged((id) => `DELETE FROM audit_log WHERE id = ${id}`, (head) => head);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`Audit log broken at row ${r.victim}:`);
  });

  test('two processes writing at once keep one chain', async () => {
    const second = await startServer({ dir: server.dir, databaseUrl: server.databaseUrl, env: { WORKER: 'off' } });
    try {
      const before = Number((await server.sql.execute('SELECT head_id AS head FROM audit_state')).rows[0]!.head);
      const s = await createStaff(admin, []);
      // Failed sign-ins on both processes at once: each is a row written in its own transaction.
      const tries = Array.from({ length: 24 }, (_, i) => new Session(i % 2 ? second.url : server.url).json('POST', '/api/login', { username: s.username, password: `nope-${i}` }));
      const answers = await Promise.all(tries);
      expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
      const after = Number((await server.sql.execute('SELECT head_id AS head FROM audit_state')).rows[0]!.head);
      expect(after - before).toBeGreaterThanOrEqual(24);
      const r = await verify(server.databaseUrl);
      expect(r.code, r.out).toBe(0);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

// Review rounds (issue 57 items 1–2): ordered stages with reviewers, rules and due dates. A
// three-stage round (staff, then a client's logins, then a named approver) runs to approval and
// the version's approval follows it; "Request changes" sends it back until a new version resets
// the open stage (history kept); the rules; refusals (not a reviewer, a stage not yet open or
// closed, an old version, a finished round, bad stages) write nothing; two decisions at once
// close a stage once; a client's board names nobody they would not otherwise see; the client
// approval of issue 16 is kept as a one-stage round and defers to the studio's round; templates.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser, expectStatus } from '../helpers/accounts.ts';
import { createImage, createVideo } from '../helpers/portal-fixtures.ts';
import { sampleImage } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { enterLink } from '../helpers/proofing.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let admin: Session;
let adminId: string;
let producer: { id: string; session: Session };
let viewer: { id: string; session: Session }; // view:media, never named in a round
let outsider: { id: string; username: string; password: string }; // no view:media
let outsiderSession: () => Session;
type Login = Awaited<ReturnType<typeof createClientWithLogin>> & { session: Session };
let marketing: Login; // client A
let legal: Login; // client A, a second login
let partner: Login; // client B, also assigned
let stranger: Login; // client C, not assigned

const FUTURE = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const board = async (mediaId: number, as: Session = admin) => (await expectStatus(as.json('GET', `/api/media/${mediaId}/round`))).round;
const clientBoard = async (mediaId: number, as: Session) => (await expectStatus(as.json('GET', `/api/client/media/${mediaId}/round`))).round;
const staffDecide = (mediaId: number, as: Session, body: Record<string, unknown>) => as.json('POST', `/api/media/${mediaId}/round/decision`, { version: 1, ...body });
const clientDecide = (mediaId: number, as: Session, body: Record<string, unknown>) => as.json('POST', `/api/client/media/${mediaId}/round/decision`, { version: 1, ...body });
const count = async (table: string, where = '1') => Number((await server.sql.execute(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)).rows[0]!.n);
const approvalOf = async (mediaId: number) =>
  (await server.sql.execute({ sql: 'SELECT v.approval_status AS s, v.approval_note AS note, v.approval_by AS by FROM media_versions v JOIN media m ON m.storage_key = v.storage_key WHERE m.id = ?', args: [mediaId] })).rows[0]!;
const staff = (id: string) => ({ kind: 'staff', userId: id });
const login = (l: Login) => ({ kind: 'client', clientUserId: l.clientUserId });

async function item(title: string) {
  return createImage(server, { title, clientId: marketing.clientId, assign: [partner.clientId] });
}

async function newVersion(mediaId: number) {
  const data = await sampleImage('png', 64, 36, '#0f766e');
  const { res, id } = await createUpload(admin, data.length, { filename: 'cut-2.png' });
  expect(res.status).toBe(201);
  expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
  const r = await admin.json('POST', `/api/media/${mediaId}/versions`, { uploadId: id });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.version.number as number;
}

async function startRound(mediaId: number, stages: unknown[], name = 'Launch film review') {
  const r = await admin.json('POST', `/api/media/${mediaId}/round`, { name, stages });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.round;
}

beforeAll(async () => {
  // The reviewers' due digest every 1.5 s instead of daily (its slot rules are unit-tested).
  server = await startServer({ env: { REVIEW_DIGEST_INTERVAL_MS: '1500' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  adminId = String((await server.sql.execute({ sql: 'SELECT id FROM users WHERE username = ?', args: [ADMIN.username] })).rows[0]!.id);
  const p = await createStaffUser(server, { permissions: ['view:media'] });
  producer = { id: p.id, session: await staffSession(server.url, p.username, p.password) };
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewer = { id: v.id, session: await staffSession(server.url, v.username, v.password) };
  outsider = await createStaffUser(server, { permissions: ['view:enquiries'] });
  const outsiderS = await staffSession(server.url, outsider.username, outsider.password);
  outsiderSession = () => outsiderS;
  const withSession = async (l: Awaited<ReturnType<typeof createClientWithLogin>>): Promise<Login> => ({ ...l, session: await clientSession(server.url, l.username, l.password) });
  marketing = await withSession(await createClientWithLogin(server, { name: 'Harbour & Co' }));
  legal = await withSession(await createClientWithLogin(server, { clientId: marketing.clientId }));
  partner = await withSession(await createClientWithLogin(server, { name: 'Quay Partners' }));
  stranger = await withSession(await createClientWithLogin(server, { name: 'Elsewhere Ltd' }));
}, 60_000);
afterAll(() => server?.stop());

describe('a three-stage round', () => {
  let mediaId: number;
  beforeAll(async () => {
    mediaId = (await item('Launch film')).id;
  });

  test('starts with its first stage open and the version in review', async () => {
    const round = await startRound(mediaId, [
      { name: 'Internal', rule: 'all', reviewers: [staff(producer.id)], dueAt: FUTURE() },
      { name: 'Client', rule: 'any', reviewers: [login(marketing), login(partner)] },
      { name: 'Legal', rule: 'approver', reviewers: [login(legal), staff(adminId)], approver: login(legal) },
    ]);
    expect(round).toMatchObject({ name: 'Launch film review', origin: 'staff', status: 'in_review', currentVersion: 1 });
    expect(round.stages.map((s: any) => [s.name, s.status])).toEqual([
      ['Internal', 'open'],
      ['Client', 'waiting'],
      ['Legal', 'waiting'],
    ]);
    expect(round.stages[2].reviewers.find((r: any) => r.isApprover).name).toBe(legal.username);
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'in_review' });
  });

  test('a reviewer of a later stage is told whose turn it is, and nothing is written', async () => {
    const before = await count('review_decisions');
    const r = await clientDecide(mediaId, marketing.session, { decision: 'approve' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Your stage has not opened yet: “Internal” reviews this version first.');
    expect(await count('review_decisions')).toBe(before);
  });

  test('staff who see the item but are not named cannot decide', async () => {
    const r = await staffDecide(mediaId, viewer.session, { decision: 'approve' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('You are not a reviewer in this round’s open stage.');
  });

  test('the stages close in order and the last approval approves the version', async () => {
    // Looking counts as opened, for the reviewer of the open stage.
    expect((await board(mediaId, producer.session)).stages[0].reviewers[0].openedAt).not.toBeNull();
    let round = (await expectStatus(staffDecide(mediaId, producer.session, { decision: 'approve' }))).round;
    expect(round.stages.map((s: any) => s.status)).toEqual(['closed', 'open', 'waiting']);
    expect(round.stages[0].closedOnVersion).toBe(1);
    round = (await expectStatus(clientDecide(mediaId, marketing.session, { decision: 'approve_with_changes', note: 'Brighter end card' }))).round;
    expect(round.stages.map((s: any) => s.status)).toEqual(['closed', 'closed', 'open']);
    // The other reviewer of a named-approver stage does not close it.
    round = (await expectStatus(staffDecide(mediaId, admin, { decision: 'approve' }))).round;
    expect(round.stages[2].status).toBe('open');
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'in_review' });
    round = (await expectStatus(clientDecide(mediaId, legal.session, { decision: 'approve' }))).round;
    expect(round.status).toBe('approved');
    expect(round.stages.every((s: any) => s.status === 'closed')).toBe(true);
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'approved', by: legal.clientUserId });
    // The client's own list shows the version approved.
    const versions = await expectStatus(legal.session.json('GET', `/api/client/media/${mediaId}/versions`));
    expect(versions[0].approval.status).toBe('approved');
    expect(await count('audit_log', `kind = 'round.decided' AND object_id = '${mediaId}'`)).toBe(4);
  });

  test('a finished round takes no more decisions; a reviewer of a closed stage is told so', async () => {
    const r = await clientDecide(mediaId, legal.session, { decision: 'request_changes', note: 'Wait' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('This review round is finished: there is nothing left to decide.');
  });

  test('a new version reopens the last stage: whoever signs off last sees the cut that ships', async () => {
    expect(await newVersion(mediaId)).toBe(2);
    // Read by staff who are not reviewers (reading the board counts as opening it).
    const round = await board(mediaId, viewer.session);
    expect(round.status).toBe('in_review');
    expect(round.stages.map((s: any) => s.status)).toEqual(['closed', 'closed', 'open']);
    expect(round.stages[2].reviewers.every((r: any) => r.decision === null && r.openedAt === null)).toBe(true);
    expect(round.stages[2].earlierDecisions).toBe(2);
    // The closed stages keep the decisions they closed on.
    expect(round.stages[1].reviewers.find((r: any) => r.decision)?.decision).toMatchObject({ decision: 'approve_with_changes', note: 'Brighter end card' });
    const stale = await clientDecide(mediaId, legal.session, { decision: 'approve', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('A newer version (v2) has been added since you opened this one: review it first.');
    const closed = await clientDecide(mediaId, marketing.session, { decision: 'approve', version: 2 });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe('Your stage (“Client”) has closed; the round has moved on.');
    expect((await expectStatus(clientDecide(mediaId, legal.session, { decision: 'approve', version: 2 }))).round.status).toBe('approved');
  });
});

describe('request changes', () => {
  let mediaId: number;
  beforeAll(async () => {
    mediaId = (await item('Social cut')).id;
    await startRound(mediaId, [
      { name: 'Internal', rule: 'all', reviewers: [staff(producer.id), staff(adminId)] },
      { name: 'Client', rule: 'any', reviewers: [login(marketing)] },
    ]);
  });

  test('needs a note', async () => {
    const r = await staffDecide(mediaId, producer.session, { decision: 'request_changes' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('note: say what should change');
  });

  test('sends the round back to the studio, and the others’ approvals do not outvote it', async () => {
    let round = (await expectStatus(staffDecide(mediaId, producer.session, { decision: 'request_changes', note: 'Logo too early' }))).round;
    expect(round.status).toBe('changes_requested');
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'changes_requested', note: 'Logo too early' });
    round = (await expectStatus(staffDecide(mediaId, admin, { decision: 'approve' }))).round;
    expect(round.status).toBe('changes_requested');
    expect(round.stages[0].status).toBe('open');
  });

  test('a reviewer may change their decision while the stage is open: the newest stands, the old is kept', async () => {
    const round = (await expectStatus(staffDecide(mediaId, producer.session, { decision: 'approve' }))).round;
    expect(round.stages.map((s: any) => s.status)).toEqual(['closed', 'open']);
    expect(round.status).toBe('in_review');
    const stage = round.stages[0].id;
    expect(await count('review_decisions', `stage_id = ${stage}`)).toBe(3);
    expect(await count('review_decisions', `stage_id = ${stage} AND replaced_at IS NULL`)).toBe(2);
  });

  test('a new version makes the open stage’s decisions history and takes the round back into review', async () => {
    expect((await expectStatus(clientDecide(mediaId, marketing.session, { decision: 'request_changes', note: 'Shorter please' }))).round.status).toBe('changes_requested');
    await newVersion(mediaId);
    const round = await board(mediaId);
    expect(round.status).toBe('in_review');
    expect(round.stages[1]).toMatchObject({ status: 'open', earlierDecisions: 1 });
    expect(round.stages[1].reviewers[0].decision).toBeNull();
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'in_review' });
    expect((await expectStatus(clientDecide(mediaId, marketing.session, { decision: 'approve', version: 2 }))).round.status).toBe('approved');
  });
});

describe('two decisions at once', () => {
  test('an “everyone” stage closes exactly once and the next opens once', async () => {
    const mediaId = (await item('Race cut')).id;
    await startRound(mediaId, [
      { name: 'Internal', rule: 'all', reviewers: [staff(producer.id), staff(adminId)] },
      { name: 'Client', rule: 'any', reviewers: [login(marketing)] },
    ]);
    const both = await Promise.all([staffDecide(mediaId, producer.session, { decision: 'approve' }), staffDecide(mediaId, admin, { decision: 'approve' })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const round = await board(mediaId);
    expect(round.stages.map((s: any) => s.status)).toEqual(['closed', 'open']);
    expect(await count('review_decisions', `stage_id = ${round.stages[0].id}`)).toBe(2);
  });

  test('the same reviewer twice at once leaves one standing decision', async () => {
    const mediaId = (await item('Twice cut')).id;
    await startRound(mediaId, [{ name: 'Client', rule: 'all', reviewers: [login(marketing), login(legal)] }]);
    const both = await Promise.all([
      clientDecide(mediaId, marketing.session, { decision: 'approve' }),
      clientDecide(mediaId, marketing.session, { decision: 'request_changes', note: 'No, wait' }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const round = await board(mediaId);
    expect(await count('review_decisions', `stage_id = ${round.stages[0].id} AND replaced_at IS NULL`)).toBe(1);
    expect(await count('review_decisions', `stage_id = ${round.stages[0].id}`)).toBe(2);
  });
});

describe('the rules', () => {
  test.each([
    { rule: 'all', decisions: ['approve'], closes: false },
    { rule: 'all', decisions: ['approve', 'approve_with_changes'], closes: true },
    { rule: 'any', decisions: ['approve_with_changes'], closes: true },
    { rule: 'approver', decisions: ['approve'], closes: false }, // the first reviewer is not the approver
    { rule: 'approver', decisions: ['approve', 'approve'], closes: true },
  ])('$rule after $decisions: closes $closes', async ({ rule, decisions, closes }) => {
    const mediaId = (await item(`Rule ${rule} ${decisions.length}`)).id;
    await startRound(mediaId, [
      { name: 'Only', rule, reviewers: [staff(producer.id), staff(adminId)], ...(rule === 'approver' ? { approver: staff(adminId) } : {}) },
    ]);
    const who = [producer.session, admin];
    for (const [i, d] of decisions.entries()) await expectStatus(staffDecide(mediaId, who[i]!, { decision: d, note: d === 'approve' ? '' : 'Small things' }));
    const round = await board(mediaId);
    expect(round.status).toBe(closes ? 'approved' : 'in_review');
    expect(round.stages[0].status).toBe(closes ? 'closed' : 'open');
  });
});

describe('starting a round: refusals write nothing', () => {
  let mediaId: number;
  beforeAll(async () => {
    mediaId = (await item('Refusals cut')).id;
  });
  const one = (stage: Record<string, unknown>) => [{ name: 'Internal', rule: 'all', reviewers: [staff(producer.id)], ...stage }];

  test.each([
    { name: 'a stage without reviewers', stages: () => one({ reviewers: [] }), message: 'stages.0.reviewers: a stage needs at least one reviewer' },
    { name: 'six stages', stages: () => Array.from({ length: 6 }, (_, i) => ({ name: `S${i}`, rule: 'any', reviewers: [staff(producer.id)] })), message: 'stages: a round has 1 to 5 stages' },
    { name: 'no stages', stages: () => [], message: 'stages: a round has 1 to 5 stages' },
    { name: 'a due date in the past', stages: () => one({ dueAt: new Date(Date.now() - 60_000).toISOString() }), message: 'stages.0.dueAt: the due date has passed' },
    { name: 'a due date without its offset', stages: () => one({ dueAt: '2030-01-01T17:00:00' }), message: 'stages.0.dueAt: must be a date and time with its offset (ISO 8601), or null' },
    { name: 'an approver stage without its approver', stages: () => one({ rule: 'approver' }), message: "stages.0.approver: an 'approver' stage names which reviewer decides" },
    { name: 'an approver who is not a reviewer', stages: () => one({ rule: 'approver', approver: staff(adminId) }), message: "stages.0.approver: the approver must be one of the stage's reviewers" },
    { name: 'staff who cannot see the library', stages: () => one({ reviewers: [staff(outsider.id)] }), message: 'stages.0.reviewers: a staff reviewer must be active and see the media library' },
    { name: 'a login of a client the item is not assigned to', stages: () => one({ reviewers: [login(stranger)] }), message: 'stages.0.reviewers: a client reviewer must be an active login of a client this item is assigned to' },
    { name: 'the same person twice', stages: () => one({ reviewers: [staff(producer.id), staff(producer.id)] }), message: 'stages.0.reviewers: the same person is named twice' },
  ])('$name: 400', async ({ stages, message }) => {
    const before = [await count('review_rounds'), await count('review_stages'), await count('review_stage_reviewers')];
    const r = await admin.json('POST', `/api/media/${mediaId}/round`, { name: 'Round', stages: stages() });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect([await count('review_rounds'), await count('review_stages'), await count('review_stage_reviewers')]).toEqual(before);
  });

  test('a second round while one is in progress: 409; cancelling ends it and keeps it', async () => {
    await startRound(mediaId, one({}));
    const again = await admin.json('POST', `/api/media/${mediaId}/round`, { name: 'Again', stages: one({}) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This item already has a review round in progress: cancel it first.');
    await expectStatus(admin.json('DELETE', `/api/media/${mediaId}/round`));
    expect((await board(mediaId)).status).toBe('cancelled');
    expect((await admin.json('DELETE', `/api/media/${mediaId}/round`)).status).toBe(404);
    await startRound(mediaId, one({}), 'Second go');
    expect((await board(mediaId)).name).toBe('Second go');
  });

  test.each([
    { name: 'staff without edit:media start one', call: () => producer.session.json('POST', `/api/media/${mediaId}/round`, { name: 'X', stages: one({}) }), status: 403 },
    { name: 'staff without edit:media cancel one', call: () => producer.session.json('DELETE', `/api/media/${mediaId}/round`), status: 403 },
    { name: 'staff without edit:media list candidates', call: () => producer.session.json('GET', `/api/media/${mediaId}/round/candidates`), status: 403 },
    { name: 'a client starts one', call: () => marketing.session.json('POST', `/api/media/${mediaId}/round`, { name: 'X', stages: one({}) }), status: 401 },
    { name: 'a client reads the staff board', call: () => marketing.session.json('GET', `/api/media/${mediaId}/round`), status: 401 },
    { name: 'a client of another item reads its board', call: () => stranger.session.json('GET', `/api/client/media/${mediaId}/round`), status: 404 },
    { name: 'a client of another item decides', call: () => clientDecide(mediaId, stranger.session, { decision: 'approve' }), status: 404 },
  ])('$name: $status', async ({ call, status }) => {
    expect((await call()).status).toBe(status);
  });

  test('the candidates are library staff and the logins of the item’s clients, nobody else', async () => {
    const list = (await expectStatus(admin.json('GET', `/api/media/${mediaId}/round/candidates`))) as { kind: string; id: string | number }[];
    const ids = list.map((c) => `${c.kind}:${c.id}`);
    expect(ids).toEqual(expect.arrayContaining([`staff:${producer.id}`, `client:${marketing.clientUserId}`, `client:${legal.clientUserId}`, `client:${partner.clientUserId}`]));
    expect(ids).not.toContain(`staff:${outsider.id}`);
    expect(ids).not.toContain(`client:${stranger.clientUserId}`);
  });
});

describe('what a client sees', () => {
  test('their own client’s logins by name; the studio’s people and other clients’ logins unnamed; no note counts', async () => {
    const mediaId = (await item('Names cut')).id;
    await startRound(mediaId, [
      { name: 'Internal', rule: 'all', reviewers: [staff(producer.id)] },
      { name: 'Client', rule: 'all', reviewers: [login(marketing), login(legal), login(partner)] },
    ]);
    const seen = await clientBoard(mediaId, marketing.session);
    const names = seen.stages.flatMap((s: any) => s.reviewers.map((r: any) => r.name));
    expect(names).toEqual(['The studio', marketing.username, legal.username, 'Another reviewer']);
    expect(JSON.stringify(seen)).not.toContain(partner.username);
    expect(seen.notes).toBeNull();
    expect(seen.canDecide).toBe(false);
    const staffSeen = await board(mediaId);
    expect(staffSeen.stages[1].reviewers.map((r: any) => r.name)).toContain(partner.username);
    expect(staffSeen.notes).toEqual({ total: 0, tasks: 0, tasksDone: 0 });
  });
});

describe('the client approval kept as a one-stage round', () => {
  let mediaId: number;
  beforeAll(async () => {
    mediaId = (await item('Approval cut')).id;
  });

  test('a client’s approval is recorded as a decision in a “Client approval” round', async () => {
    await expectStatus(marketing.session.json('PUT', `/api/client/media/${mediaId}/approval`, { status: 'changes_requested', note: 'Warmer', version: 1 }));
    await expectStatus(legal.session.json('PUT', `/api/client/media/${mediaId}/approval`, { status: 'approved', version: 1 }));
    const round = await board(mediaId);
    expect(round).toMatchObject({ name: 'Client approval', origin: 'approval', status: 'approved', canDecide: false });
    expect(round.stages[0].reviewers.map((r: any) => [r.name, r.decision?.decision])).toEqual([
      [marketing.username, 'request_changes'],
      [legal.username, 'approve'],
    ]);
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'approved', by: legal.clientUserId });
  });

  test('once the studio starts a round, it decides: the approval endpoint is a decision in it, link guests are refused', async () => {
    await startRound(mediaId, [{ name: 'Client', rule: 'all', reviewers: [login(marketing), login(legal)] }]);
    expect(await approvalOf(mediaId)).toMatchObject({ s: 'in_review' });
    const history = await count('review_rounds', `media_id = ${mediaId} AND origin = 'approval'`);
    expect(history).toBe(1);
    const put = await marketing.session.json('PUT', `/api/client/media/${mediaId}/approval`, { status: 'approved', version: 1 });
    expect(put.status).toBe(200);
    expect(put.body.approval.status).toBe('in_review'); // one of two has approved
    const round = await board(mediaId);
    expect(round.origin).toBe('staff');
    expect(round.stages[0].reviewers.find((r: any) => r.name === marketing.username).decision.decision).toBe('approve');
    const link = await expectStatus(admin.json('POST', '/api/share-links', { name: 'Approvers', mediaIds: [mediaId], allowApprove: true }), 201);
    const token = new URL(link.url).pathname.split('/').pop()!;
    const guest = await enterLink(server.url, token);
    const before = await count('review_decisions');
    const byGuest = await guest.json('PUT', `/api/share/${token}/media/${mediaId}/approval`, { name: 'Lee', status: 'approved', version: 1 });
    expect(byGuest.status).toBe(409);
    expect(byGuest.body.message).toBe('This cut is in the studio’s review round: its reviewers decide.');
    expect(await count('review_decisions')).toBe(before);
    const notMine = await partner.session.json('PUT', `/api/client/media/${mediaId}/approval`, { status: 'approved', version: 1 });
    expect(notMine.status).toBe(403);
  });
});

describe('telling reviewers', () => {
  const bellOf = async (s: Session) => (await expectStatus(s.json('GET', '/api/notifications'))).events as { kind: string; summary: string; mediaId: number }[];
  const mailsTo = async (address: string, mediaId: number) =>
    Number((await server.sql.execute({ sql: "SELECT count(*) AS n FROM notification_outbox o JOIN notification_events e ON e.id = o.event_id WHERE e.kind = 'round' AND e.media_id = ? AND o.recipient_address = ?", args: [mediaId, address] })).rows[0]!.n);
  let mediaId: number;
  let board0: any;
  beforeAll(async () => {
    mediaId = (await item('Calling cut')).id;
    board0 = await startRound(mediaId, [
      { name: 'Internal', rule: 'all', reviewers: [staff(producer.id), staff(adminId)] },
      { name: 'Client', rule: 'any', reviewers: [login(marketing)] },
    ]);
  });

  test('an opening stage reaches its reviewers’ bells only, and the next stage’s reviewers when it opens', async () => {
    expect((await bellOf(producer.session)).filter((e) => e.kind === 'round' && e.mediaId === mediaId).map((e) => e.summary)).toEqual([`Your decision is awaited on "Calling cut" v1 (Internal)`]);
    expect((await bellOf(viewer.session)).some((e) => e.kind === 'round' && e.mediaId === mediaId)).toBe(false);
    expect(await mailsTo(`login.${marketing.email}`, mediaId)).toBe(0);
    await expectStatus(staffDecide(mediaId, producer.session, { decision: 'approve' }));
    await expectStatus(staffDecide(mediaId, admin, { decision: 'approve' }));
    // Client logins get an email (notifications are on by default for them).
    expect(await mailsTo(`login.${marketing.email}`, mediaId)).toBe(1);
  });

  test('Remind: once in 12 hours per reviewer (429 after), only someone in the open stage who has not decided, edit:media only', async () => {
    const round = await board(mediaId, viewer.session);
    const client = round.stages[1].reviewers[0];
    const first = await admin.json('POST', `/api/media/${mediaId}/round/remind`, { reviewerId: client.id });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(await mailsTo(`login.${marketing.email}`, mediaId)).toBe(2);
    const again = await admin.json('POST', `/api/media/${mediaId}/round/remind`, { reviewerId: client.id });
    expect(again.status).toBe(429);
    expect(again.body.message).toBe('This reviewer was reminded less than 12 hours ago.');
    expect(await mailsTo(`login.${marketing.email}`, mediaId)).toBe(2);
    const decided = await admin.json('POST', `/api/media/${mediaId}/round/remind`, { reviewerId: board0.stages[0].reviewers[0].id });
    expect(decided.status).toBe(409);
    expect((await producer.session.json('POST', `/api/media/${mediaId}/round/remind`, { reviewerId: client.id })).status).toBe(403);
  });
});

describe('what waits on whom', () => {
  test('“Waiting on me” lists the open stages naming this person without their decision; “overdue” the open stages past due; a client sees only their assigned items', async () => {
    const soon = (await item('Overdue cut')).id;
    const later = (await item('Later cut')).id;
    const due = new Date(Date.now() + 60_000);
    await startRound(soon, [{ name: 'Client', rule: 'all', reviewers: [login(marketing), staff(producer.id)], dueAt: due.toISOString() }]);
    await startRound(later, [
      { name: 'Internal', rule: 'all', reviewers: [staff(adminId)] },
      { name: 'Client', rule: 'all', reviewers: [login(marketing)] },
    ]);
    // The due time passes (set in the database: waiting a minute is not a test).
    await server.sql.execute({ sql: "UPDATE review_stages SET due_at = ? WHERE round_id = (SELECT id FROM review_rounds WHERE media_id = ? AND status = 'in_review')", args: [Date.now() - 1000, soon] });
    const mine = async (s: Session) => await expectStatus(s.json('GET', '/api/rounds/mine'));
    const producerLists = await mine(producer.session);
    expect(producerLists.waitingOnMe).toContain(soon);
    expect(producerLists.waitingOnMe).not.toContain(later);
    expect(producerLists.overdue).toContain(soon);
    expect(producerLists.overdue).not.toContain(later);
    expect((await mine(admin)).waitingOnMe).toContain(later);
    const theirs = await expectStatus(marketing.session.json('GET', '/api/client/rounds/mine'));
    expect(theirs.waitingOnMe).toContain(soon);
    expect(theirs.waitingOnMe).not.toContain(later); // their stage has not opened
    // Deciding takes it off their list; an item no longer assigned to them leaves it too.
    await expectStatus(staffDecide(soon, producer.session, { decision: 'approve' }));
    expect((await mine(producer.session)).waitingOnMe).not.toContain(soon);
    await server.sql.execute({ sql: 'UPDATE media SET client_id = NULL WHERE id = ?', args: [soon] });
    expect((await expectStatus(marketing.session.json('GET', '/api/client/rounds/mine'))).waitingOnMe).not.toContain(soon);
    expect((await stranger.session.json('GET', '/api/rounds/mine')).status).toBe(401);
    expect((await outsiderSession().json('GET', '/api/rounds/mine')).status).toBe(403);
  });
});

describe('@mentions (item 3)', () => {
  let mediaId: number;
  const notes = async () => count('timeline_notes', `media_id = ${mediaId}`);
  const mailed = async (address: string) =>
    Number((await server.sql.execute({ sql: "SELECT count(*) AS n FROM notification_outbox o JOIN notification_events e ON e.id = o.event_id WHERE e.kind = 'mention' AND e.media_id = ? AND o.recipient_address = ?", args: [mediaId, address] })).rows[0]!.n);
  beforeAll(async () => {
    // A video: a note is at a moment (an image's notes are at 0).
    mediaId = (await createVideo(server, { title: 'Mention cut', clientId: marketing.clientId, assign: [partner.clientId], durationSeconds: 60 })).id;
  });

  test('who may be named: staff see library staff and the item’s client logins; a client only the other logins of their own client', async () => {
    const forStaff = ((await expectStatus(admin.json('GET', `/api/media/${mediaId}/mentionable`))) as any[]).map((m) => JSON.stringify(m.ref));
    for (const ref of [staff(producer.id), login(marketing), login(legal), login(partner)]) expect(forStaff).toContain(JSON.stringify(ref));
    for (const ref of [staff(outsider.id), login(stranger)]) expect(forStaff).not.toContain(JSON.stringify(ref));
    const forClient = (await expectStatus(marketing.session.json('GET', `/api/client/media/${mediaId}/mentionable`))) as any[];
    expect(forClient.map((m) => m.ref)).toEqual([login(legal)]);
    expect(JSON.stringify(forClient)).not.toContain(partner.username);
    expect((await stranger.session.json('GET', `/api/client/media/${mediaId}/mentionable`)).status).toBe(404);
  });

  test('a staff note naming a colleague and a client login tells each: the colleague’s own bell (at the note’s time) and the login’s email', async () => {
    const r = await admin.json('POST', `/api/media/${mediaId}/timeline-notes`, { text: `@Producer and @${legal.username}: logo at 3s`, timestampMs: 3000, mentions: [staff(producer.id), login(legal), login(legal)] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(await count('note_mentions', `timeline_note_id = ${r.body.id}`)).toBe(2);
    const bell = (await expectStatus(producer.session.json('GET', '/api/notifications'))).events.filter((e: any) => e.kind === 'mention' && e.mediaId === mediaId);
    expect(bell).toHaveLength(1);
    expect(bell[0]).toMatchObject({ noteMs: 3000, path: `/admin/media?item=${mediaId}&at=3000` });
    expect(bell[0].summary).toContain('mentioned you on "Mention cut" v1 at 00:03');
    expect((await expectStatus(viewer.session.json('GET', '/api/notifications'))).events.some((e: any) => e.kind === 'mention' && e.mediaId === mediaId)).toBe(false);
    expect(await mailed(`login.${legal.email}`)).toBe(1);
  });

  test('a client names a colleague: the colleague is emailed', async () => {
    const r = await marketing.session.json('POST', `/api/client/media/${mediaId}/timeline-notes`, { mediaId, noteText: `@${legal.username} can you check the credits?`, timestampMs: 5000, mentions: [login(legal)] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(await mailed(`login.${legal.email}`)).toBe(2);
  });

  test('replies under a note may name people too, as the note could; refused ones write no reply', async () => {
    const note = await expectStatus(marketing.session.json('POST', `/api/client/media/${mediaId}/timeline-notes`, { mediaId, noteText: 'Music too loud', timestampMs: 8000 }), 201);
    const before = await mailed(`login.${legal.email}`);
    await expectStatus(admin.json('POST', `/api/admin/media/timeline-notes/${note.id}/replies`, { text: `@${legal.username} agreed?`, mentions: [login(legal)] }), 201);
    expect(await mailed(`login.${legal.email}`)).toBe(before + 1);
    const replies = async () => count('media_replies', `timeline_note_id = ${note.id}`);
    const n = await replies();
    const refused = await marketing.session.json('POST', `/api/client/media/timeline-notes/${note.id}/replies`, { text: 'Hi', mentions: [login(partner)] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('mentions: you can mention only people who can see this item');
    const internal = await expectStatus(admin.json('POST', `/api/media/${mediaId}/timeline-notes`, { text: 'Studio only', timestampMs: 9000, internal: true }), 201);
    const underInternal = await admin.json('POST', `/api/admin/media/timeline-notes/${internal.id}/replies`, { text: 'Hi', mentions: [login(legal)] });
    expect(underInternal.status).toBe(400);
    expect(underInternal.body.message).toBe('mentions: an internal note can mention staff only');
    expect(await replies()).toBe(n);
    expect(await count('media_replies', `timeline_note_id = ${internal.id}`)).toBe(0);
  });

  test.each([
    { name: 'a client names another client’s login', as: () => marketing.session, path: () => `/api/client/media/${mediaId}/timeline-notes`, body: () => ({ mediaId, noteText: 'Hi', timestampMs: 0, mentions: [login(partner)] }), message: 'mentions: you can mention only people who can see this item' },
    { name: 'a client names someone in the studio', as: () => marketing.session, path: () => `/api/client/media/${mediaId}/timeline-notes`, body: () => ({ mediaId, noteText: 'Hi', timestampMs: 0, mentions: [staff(producer.id)] }), message: 'mentions: you can mention only people who can see this item' },
    { name: 'staff name someone who cannot see the library', as: () => admin, path: () => `/api/media/${mediaId}/timeline-notes`, body: () => ({ text: 'Hi', timestampMs: 0, mentions: [staff(outsider.id)] }), message: 'mentions: you can mention only people who can see this item' },
    { name: 'staff name a client in an internal note', as: () => admin, path: () => `/api/media/${mediaId}/timeline-notes`, body: () => ({ text: 'Hi', timestampMs: 0, internal: true, mentions: [login(legal)] }), message: 'mentions: an internal note can mention staff only' },
  ])('$name: 400, no note written', async ({ as, path, body, message }) => {
    const before = [await notes(), await count('note_mentions')];
    const r = await as().json('POST', path(), body());
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect([await notes(), await count('note_mentions')]).toEqual(before);
  });
});

describe('the reviewers’ due digest (item 5)', () => {
  const digestsTo = async (address: string, title: string) =>
    (await server.sql.execute({ sql: "SELECT id, subject, body FROM notification_outbox WHERE event_id IS NULL AND subject LIKE 'Reviews waiting on you%' AND recipient_address = ? AND body LIKE ? ORDER BY id", args: [address, `%"${title}"%`] })).rows;
  test('lists what is due within a day or overdue for each undecided reviewer, one email each; nothing for who has decided or has nothing due', async () => {
    const mediaId = (await item('Digest cut')).id;
    await server.sql.execute({ sql: "UPDATE users SET notify_mode = 'immediately' WHERE id = ?", args: [producer.id] });
    await startRound(mediaId, [{ name: 'Sign-off', rule: 'all', reviewers: [staff(producer.id), login(marketing)], dueAt: new Date(Date.now() + 3600_000).toISOString() }]);
    const producerMail = `${(await server.sql.execute({ sql: 'SELECT email FROM users WHERE id = ?', args: [producer.id] })).rows[0]!.email}`;
    await until('a digest for the client login', async () => (await digestsTo(`login.${marketing.email}`, 'Digest cut')).length > 0, 20_000);
    const [first] = await digestsTo(`login.${marketing.email}`, 'Digest cut');
    expect(String(first!.body)).toMatch(/- "Digest cut" v1, stage "Sign-off": due /);
    expect(String(first!.body)).toContain(`/client/dashboard?item=${mediaId}`);
    await until('a digest for the staff reviewer', async () => (await digestsTo(producerMail, 'Digest cut')).length > 0, 20_000);
    // Overdue says so.
    await server.sql.execute({ sql: "UPDATE review_stages SET due_at = ? WHERE round_id = (SELECT id FROM review_rounds WHERE media_id = ? AND status = 'in_review')", args: [Date.now() - 3600_000, mediaId] });
    await until('an overdue digest', async () => (await digestsTo(`login.${marketing.email}`, 'Digest cut')).some((r) => /overdue since/.test(String(r.body)) && /\(1 overdue\)/.test(String(r.subject))), 20_000);
    // Once the producer decides, their digests stop listing it.
    await expectStatus(staffDecide(mediaId, producer.session, { decision: 'approve' }));
    const decidedAt = (await digestsTo(producerMail, 'Digest cut')).length;
    const clientSoFar = (await digestsTo(`login.${marketing.email}`, 'Digest cut')).length;
    await until('two more digests for the client', async () => (await digestsTo(`login.${marketing.email}`, 'Digest cut')).length >= clientSoFar + 2, 20_000);
    expect((await digestsTo(producerMail, 'Digest cut')).length).toBeLessThanOrEqual(decidedAt + 1); // at most one written while the decision was on its way
    // Someone named in no due stage never gets one.
    expect(await digestsTo(`login.${legal.email}`, 'Digest cut')).toEqual([]);
  }, 90_000);
});

describe('templates', () => {
  test('saved, listed by name, refused twice by name, deleted; edit:media only', async () => {
    const body = { name: 'Agency standard', stages: [{ name: 'Internal', rule: 'all', dueInDays: 2 }, { name: 'Client', rule: 'any' }] };
    const made = await expectStatus(admin.json('POST', '/api/round-templates', body), 201);
    expect(made).toMatchObject({ name: 'Agency standard', stages: [{ name: 'Internal', rule: 'all', dueInDays: 2 }, { name: 'Client', rule: 'any', dueInDays: null }] });
    expect((await expectStatus(admin.json('GET', '/api/round-templates'))).map((t: any) => t.name)).toContain('Agency standard');
    const twice = await admin.json('POST', '/api/round-templates', { ...body, name: 'agency STANDARD' });
    expect(twice.status).toBe(409);
    expect((await producer.session.json('POST', '/api/round-templates', { ...body, name: 'Other' })).status).toBe(403);
    expect((await producer.session.json('GET', '/api/round-templates')).status).toBe(403);
    expect((await admin.json('POST', '/api/round-templates', { name: 'Bad', stages: [{ name: 'X', rule: 'most' }] })).status).toBe(400);
    await expectStatus(admin.json('DELETE', `/api/round-templates/${made.id}`));
    expect((await admin.json('DELETE', `/api/round-templates/${made.id}`)).status).toBe(404);
  });
});

// The review workflow API (issue 16): version stacks, approval per version, replies and
// resolved notes, every new endpoint's permission matrix, and who may fetch an older version.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, storedNames, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { sampleImage, sampleVideo } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let admin: Session;
let uploader: Session; // upload:media + edit:media + view:media
let uploadOnly: Session; // upload:media + view:media, no edit:media
let viewer: Session; // view:media only
let nobody: Session; // staff without any permission
let clientA: Session;
let clientB: Session;
let a: Awaited<ReturnType<typeof createClientWithLogin>>;
let b: Awaited<ReturnType<typeof createClientWithLogin>>;

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, 'admin', 'admin-password-123');
  const mk = async (permissions: string[]) => {
    const u = await createStaffUser(server, { permissions });
    return staffSession(server.url, u.username, u.password);
  };
  uploader = await mk(['upload:media', 'edit:media', 'view:media']);
  uploadOnly = await mk(['upload:media', 'view:media']);
  viewer = await mk(['view:media']);
  nobody = await mk([]);
  a = await createClientWithLogin(server, { name: 'Agency A' });
  b = await createClientWithLogin(server, { name: 'Brand B' });
  clientA = await clientSession(server.url, a.username, a.password);
  clientB = await clientSession(server.url, b.username, b.password);
});
afterAll(() => server?.stop());

/** A complete resumable upload of `data`; answers its id for finishing. */
async function uploaded(s: Session, data: Uint8Array, filename = 'cut.mp4'): Promise<string> {
  const { res, id } = await createUpload(s, data.length, { filename });
  expect(res.status).toBe(201);
  expect((await patchUpload(s, id!, 0, data)).status).toBe(204);
  return id!;
}

async function newVersion(s: Session, mediaId: number, filename = 'cut-2.mp4') {
  return s.json('POST', `/api/media/${mediaId}/versions`, { uploadId: await uploaded(s, sampleVideo('mp4'), filename) });
}

const versionsOf = async (mediaId: number) => (await admin.json('GET', `/api/media/${mediaId}/versions`)).body as any[];
const itemOf = async (mediaId: number) => (await admin.json('GET', '/api/media')).body.find((m: any) => m.id === mediaId);

describe('versions', () => {
  let item: MediaFixture;
  beforeAll(async () => {
    item = await createVideo(server, { title: 'Brand film', clientId: a.clientId });
  });

  test('an item starts as v1, current, In review', async () => {
    const list = await versionsOf(item.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ number: 1, current: true, url: item.url, approval: { status: 'in_review', locked: false, by: null } });
    expect(await itemOf(item.id)).toMatchObject({ version: 1, versionCount: 1, approvalStatus: 'in_review', approvalLocked: false });
  });

  test('a new version becomes current in its own folder; v1 keeps its file, feedback and notes', async () => {
    const fb = await clientA.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'Warmer grade please', rating: 3 });
    expect(fb.status).toBe(201);
    const note = await clientA.json('POST', `/api/client/media/${item.id}/timeline-notes`, { mediaId: item.id, timestampSeconds: 2, noteText: 'Logo too early' });
    expect(note.status).toBe(201);
    expect(await itemOf(item.id)).toMatchObject({ feedbackCount: 1, noteCount: 1, earlierFeedbackCount: 0, earlierNoteCount: 0 });

    const res = await newVersion(uploader, item.id);
    expect(res.status).toBe(201);
    expect(res.body.version).toMatchObject({ number: 2, current: true, filename: 'cut-2.mp4', approval: { status: 'in_review' } });
    // The card's counts (issue 53): none on v2 yet, and those of v1 still counted as earlier,
    // in the item's own answer and in the library list (written by SQLite).
    const counts = { feedbackCount: 0, noteCount: 0, earlierFeedbackCount: 1, earlierNoteCount: 1 };
    expect(res.body.item).toMatchObject({ id: item.id, version: 2, versionCount: 2, filename: 'cut-2.mp4', ...counts });
    expect(await itemOf(item.id)).toMatchObject(counts);
    const v2Key = res.body.version.url.split('/')[2];
    expect(v2Key).not.toBe(item.storageKey);
    expect(await storedNames(server, v2Key)).toContain('original.mp4');
    expect(await storedNames(server, item.storageKey)).toContain('original.mp4');

    const [v1, v2] = await versionsOf(item.id);
    expect(v1).toMatchObject({ number: 1, current: false, feedbackCount: 1, noteCount: 1 });
    expect(v2).toMatchObject({ number: 2, current: true, feedbackCount: 0, noteCount: 0 });
    // The feedback and note stay on v1 in every list.
    const feedback = (await admin.json('GET', `/api/admin/media/feedback?mediaId=${item.id}`)).body;
    expect(feedback.map((f: any) => f.versionNumber)).toEqual([1]);
    expect((await admin.json('GET', `/api/admin/media/timeline-notes?versionId=${v2.id}`)).body).toEqual([]);
    expect((await clientA.json('GET', '/api/client/media/timeline-notes')).body.find((n: any) => n.id === note.body.id)).toMatchObject({ versionNumber: 1 });
    // The portal shows the current version.
    const portal = (await clientA.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
    expect(portal).toMatchObject({ version: 2, versionCount: 2, approvalStatus: 'in_review', url: res.body.version.url });
  });

  test('a client may comment on an older version by naming it; an unknown version is refused', async () => {
    const [v1] = await versionsOf(item.id);
    const ok = await clientA.json('POST', `/api/client/media/${item.id}/timeline-notes`, { mediaId: item.id, timestampSeconds: 1, noteText: 'Still on v1', versionId: v1.id });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ versionId: v1.id, versionNumber: 1 });
    const other = await createVideo(server, { title: 'Other', clientId: a.clientId });
    const otherV = (await versionsOf(other.id))[0];
    const bad = await clientA.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'x', rating: 4, versionId: otherV.id });
    expect(bad).toMatchObject({ status: 400, body: { message: 'versionId: Unknown version of this media' } });
  });

  test('an older version is served to staff and the assigned client only, never to the public', async () => {
    const [v1] = await versionsOf(item.id);
    await admin.json('PUT', `/api/media/${item.id}`, { showInPortfolio: true });
    const anon = new Session(server.url);
    expect((await anon.get((await itemOf(item.id)).url)).status).toBe(200); // the current cut is public now
    expect((await anon.get(v1.url)).status).toBe(404);
    expect((await clientB.get(v1.url)).status).toBe(404);
    expect((await clientA.get(v1.url)).status).toBe(200);
    expect((await viewer.get(v1.url)).status).toBe(200);
    await admin.json('PUT', `/api/media/${item.id}`, { showInPortfolio: false });
  });

  test('a new version must be the same kind of media', async () => {
    const id = await uploaded(uploader, await sampleImage('jpeg'), 'still.jpg');
    const res = await uploader.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(res).toMatchObject({ status: 415, body: { message: 'A new version must be a video, like the versions before it.' } });
    expect(await versionsOf(item.id)).toHaveLength(2);
  });

  test('deleting the current version makes the newest remaining one current; the only version cannot go', async () => {
    const solo = await createVideo(server, { title: 'Solo' });
    const [only] = await versionsOf(solo.id);
    const refused = await admin.json('DELETE', `/api/media/${solo.id}/versions/${only.id}`);
    expect(refused).toMatchObject({ status: 409, body: { message: 'This is the only version of this item: delete the item instead.' } });

    const added = await newVersion(admin, solo.id, 'solo-2.mp4');
    const v2Key = added.body.version.url.split('/')[2];
    const del = await admin.json('DELETE', `/api/media/${solo.id}/versions/${added.body.version.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ version: 1, versionCount: 1, url: solo.url });
    expect(await storedNames(server, v2Key)).toEqual([]);
    expect(await storedNames(server, solo.storageKey)).toContain('original.mp4');
  });

  test('deleting the item removes every version folder', async () => {
    const gone = await createVideo(server, { title: 'Gone' });
    const added = await newVersion(admin, gone.id);
    const v2Key = added.body.version.url.split('/')[2];
    expect((await admin.request('DELETE', `/api/media/${gone.id}`)).status).toBe(200);
    expect(await storedNames(server, gone.storageKey)).toEqual([]);
    expect(await storedNames(server, v2Key)).toEqual([]);
  });

  test('each version is converted on its own: v2 gets its own renditions and v1 keeps its', async () => {
    const conv = await createVideo(server, { title: 'Converted' });
    await admin.json('POST', `/api/media/${conv.id}/reprocess`);
    await until('v1 ready', async () => (await versionsOf(conv.id))[0].processingStatus === 'ready', 60_000);
    const added = await newVersion(admin, conv.id);
    expect(added.body.item.processingStatus).toMatch(/queued|processing/);
    await until('v2 ready', async () => (await versionsOf(conv.id))[1]?.processingStatus === 'ready', 60_000);
    const [v1, v2] = await versionsOf(conv.id);
    expect(v1.renditions[0].url.split('/')[2]).toBe(conv.storageKey);
    expect(v2.renditions[0].url.split('/')[2]).toBe(added.body.version.url.split('/')[2]);
    expect((await itemOf(conv.id)).playbackUrl).toBe(v2.playbackUrl);
  });
});

describe('approval', () => {
  let item: MediaFixture;
  beforeAll(async () => {
    item = await createVideo(server, { title: 'Approval film', assign: [a.clientId] });
  });
  const approve = (s: Session, body: unknown, id = item.id) => s.json('PUT', `/api/client/media/${id}/approval`, body);

  test('"Changes requested" needs a note; the decision records who and when', async () => {
    expect(await approve(clientA, { status: 'changes_requested', version: 1 })).toMatchObject({ status: 400, body: { message: 'note: A note is required when requesting changes' } });
    // The version looked at is required: without it nobody can tell a stale decision.
    expect(await approve(clientA, { status: 'approved' })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^version: /) } });
    const res = await approve(clientA, { status: 'changes_requested', note: 'Shorter intro', version: 1 });
    expect(res.status).toBe(200);
    expect(res.body.approval).toMatchObject({ status: 'changes_requested', note: 'Shorter intro', by: a.username, locked: false });
    expect(Date.parse(res.body.approval.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await itemOf(item.id)).toMatchObject({ approvalStatus: 'changes_requested' });
  });

  test('another client cannot decide on it (404), nor can staff through the client route (401)', async () => {
    expect((await approve(clientB, { status: 'approved', version: 1 })).status).toBe(404);
    expect((await approve(admin, { status: 'approved', version: 1 })).status).toBe(401);
    expect(await itemOf(item.id)).toMatchObject({ approvalStatus: 'changes_requested' });
  });

  test('a new version resets the status to In review; the old version keeps its decision', async () => {
    await newVersion(admin, item.id);
    expect(await itemOf(item.id)).toMatchObject({ version: 2, approvalStatus: 'in_review' });
    const [v1, v2] = await versionsOf(item.id);
    expect(v1.approval.status).toBe('changes_requested');
    expect(v2.approval.status).toBe('in_review');
    // A decision made from a stale page names the old version: refused.
    expect(await approve(clientA, { status: 'approved', version: 1 })).toMatchObject({ status: 409 });
    expect((await approve(clientA, { status: 'approved', version: 2 })).body.approval.status).toBe('approved');
  });

  test('staff lock the decision; the client can no longer change it until it is unlocked', async () => {
    const v2 = (await versionsOf(item.id))[1];
    const locked = await admin.json('PUT', `/api/media/${item.id}/versions/${v2.id}/lock`, { locked: true });
    expect(locked.body.approval).toMatchObject({ status: 'approved', locked: true });
    expect(await approve(clientA, { status: 'changes_requested', note: 'Actually...', version: 2 })).toMatchObject({
      status: 409,
      body: { message: 'The studio has locked this decision. Contact them if it needs to change.' },
    });
    expect(await itemOf(item.id)).toMatchObject({ approvalStatus: 'approved', approvalLocked: true });
    await admin.json('PUT', `/api/media/${item.id}/versions/${v2.id}/lock`, { locked: false });
    expect((await approve(clientA, { status: 'changes_requested', note: 'Actually...', version: 2 })).status).toBe(200);
  });

  test('the dashboard counts items assigned to a client whose current version awaits a decision', async () => {
    const count = async () => (await admin.json('GET', '/api/stats')).body.awaitingApproval;
    const before = await count();
    const fresh = await createVideo(server, { title: 'Awaiting', clientId: b.clientId });
    await createVideo(server, { title: 'Nobody to approve' });
    expect(await count()).toBe(before + 1);
    await approve(clientB, { status: 'approved', version: 1 }, fresh.id);
    expect(await count()).toBe(before);
  });
});

describe('replies and resolved notes', () => {
  let item: MediaFixture;
  let note: any;
  let feedback: any;
  beforeAll(async () => {
    item = await createVideo(server, { title: 'Thread film', clientId: a.clientId });
    note = (await clientA.json('POST', `/api/client/media/${item.id}/timeline-notes`, { mediaId: item.id, timestampSeconds: 1, noteText: 'Cut here' })).body;
    feedback = (await clientA.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'Lovely', rating: 5 })).body;
  });

  test('staff reply, the client replies back, both see the thread in order', async () => {
    const staff = await viewer.json('POST', `/api/admin/media/timeline-notes/${note.id}/replies`, { text: 'Done in v2' });
    expect(staff).toMatchObject({ status: 201, body: { by: 'staff', text: 'Done in v2' } });
    const back = await clientA.json('POST', `/api/client/media/timeline-notes/${note.id}/replies`, { text: 'Thanks!' });
    expect(back).toMatchObject({ status: 201, body: { by: 'client', author: a.username, text: 'Thanks!' } });
    expect((await viewer.json('POST', `/api/admin/media/feedback/${feedback.id}/replies`, { text: 'Glad you like it' })).status).toBe(201);

    const mine = (await clientA.json('GET', '/api/client/media/timeline-notes')).body.find((n: any) => n.id === note.id);
    expect(mine.replies.map((r: any) => [r.by, r.text])).toEqual([['staff', 'Done in v2'], ['client', 'Thanks!']]);
    const adminView = (await admin.json('GET', `/api/admin/media/feedback?mediaId=${item.id}`)).body[0];
    expect(adminView.replies.map((r: any) => r.text)).toEqual(['Glad you like it']);
  });

  test.each([
    ['an empty reply', { text: '  ' }, 'Reply is required'],
    ['an unknown field', { text: 'x', extra: 1 }, null],
  ])('%s is refused with 400', async (_name, body, message) => {
    const res = await viewer.json('POST', `/api/admin/media/timeline-notes/${note.id}/replies`, body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toContain(message);
  });

  test('a client cannot reply under another client’s note', async () => {
    expect((await clientB.json('POST', `/api/client/media/timeline-notes/${note.id}/replies`, { text: 'Hi' })).status).toBe(404);
  });

  test('staff with edit:media resolve and reopen a note', async () => {
    const done = await admin.json('PUT', `/api/admin/media/timeline-notes/${note.id}/resolved`, { resolved: true });
    expect(done.status).toBe(200);
    expect(Date.parse(done.body.resolvedAt)).not.toBeNaN();
    expect((await clientA.json('GET', '/api/client/media/timeline-notes')).body.find((n: any) => n.id === note.id).resolvedAt).toBe(done.body.resolvedAt);
    const open = await admin.json('PUT', `/api/admin/media/timeline-notes/${note.id}/resolved`, { resolved: false });
    expect(open.body.resolvedAt).toBeNull();
  });
});

describe('permission matrix of every new endpoint', () => {
  let item: MediaFixture;
  /** The item's current version: v2 once the test that adds one has run. */
  let decideVersion = 1;
  let noteId: number;
  let feedbackId: number;
  let versionId: number;
  beforeAll(async () => {
    item = await createVideo(server, { title: 'Matrix film', clientId: a.clientId });
    noteId = (await clientA.json('POST', `/api/client/media/${item.id}/timeline-notes`, { mediaId: item.id, timestampSeconds: 1, noteText: 'n' })).body.id;
    feedbackId = (await clientA.json('POST', `/api/client/media/${item.id}/feedback`, { mediaId: item.id, feedbackText: 'f', rating: 4 })).body.id;
    versionId = (await versionsOf(item.id))[0].id;
  });

  // Staff routes: signed out 401, a client 401, staff without the permission 403, staff with it succeed.
  const staffRoutes: [string, string, () => string, () => unknown, string, number][] = [
    ['list versions', 'GET', () => `/api/media/${item.id}/versions`, () => undefined, 'view:media', 200],
    ['lock a decision', 'PUT', () => `/api/media/${item.id}/versions/${versionId}/lock`, () => ({ locked: false }), 'edit:media', 200],
    ['reply to feedback', 'POST', () => `/api/admin/media/feedback/${feedbackId}/replies`, () => ({ text: 'r' }), 'view:media', 201],
    ['reply to a note', 'POST', () => `/api/admin/media/timeline-notes/${noteId}/replies`, () => ({ text: 'r' }), 'view:media', 201],
    ['resolve a note', 'PUT', () => `/api/admin/media/timeline-notes/${noteId}/resolved`, () => ({ resolved: true }), 'edit:media', 200],
    ['delete the only version', 'DELETE', () => `/api/media/${item.id}/versions/${versionId}`, () => undefined, 'edit:media', 409],
  ];
  test.each(staffRoutes)('%s: 401 signed out or as a client, 403 without the permission, allowed with it', async (_n, method, p, body, permission, okStatus) => {
    expect((await new Session(server.url).json(method, p(), body())).status).toBe(401);
    expect((await clientA.json(method, p(), body())).status).toBe(401);
    expect((await nobody.json(method, p(), body())).status).toBe(403);
    const holder = permission === 'view:media' ? viewer : admin;
    expect((await holder.json(method, p(), body())).status).toBe(okStatus);
  });

  test('adding a version needs upload:media, and only the uploader can finish their upload', async () => {
    const id = await uploaded(uploader, sampleVideo('mp4'));
    const finish = (s: Session) => s.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect((await finish(new Session(server.url))).status).toBe(401);
    expect((await finish(clientA)).status).toBe(401);
    expect((await finish(viewer)).status).toBe(403);
    expect((await finish(nobody)).status).toBe(403);
    expect((await finish(admin)).status).toBe(404); // someone else's upload, even with the permission
    expect((await finish(uploader)).status).toBe(201);
    expect(await versionsOf(item.id)).toHaveLength(2);
    decideVersion = 2;
  });

  // Issue 31: a new version replaces what the site or a client sees, so upload:media alone adds
  // versions only to items nobody outside the studio sees yet.
  test.each([
    ['assigned to a client', async () => (await createVideo(server, { title: 'Assigned cut', assign: [b.clientId] })).id],
    ["a client's own item", async () => (await createVideo(server, { title: 'Own cut', clientId: b.clientId })).id],
    ['in the portfolio', async () => {
      const m = await createVideo(server, { title: 'Portfolio cut' });
      expect((await admin.json('PUT', `/api/media/${m.id}`, { showInPortfolio: true })).status).toBe(200);
      return m.id;
    }],
    ['the site background video', async () => {
      const m = await createVideo(server, { title: 'Hero cut' });
      await server.sql.execute({ sql: "INSERT INTO website_settings (section, background_video_id) VALUES ('hero', ?) ON CONFLICT (section) DO UPDATE SET background_video_id = excluded.background_video_id", args: [m.id] });
      return m.id;
    }],
  ])('a version of an item %s needs edit:media too: 403, nothing changes, the upload stays open', async (_what, make) => {
    const mediaId = await make();
    const id = await uploaded(uploadOnly, sampleVideo('mp4'));
    const refused = await uploadOnly.json('POST', `/api/media/${mediaId}/versions`, { uploadId: id });
    expect(refused).toMatchObject({ status: 403, body: { message: expect.stringContaining('edit:media') } });
    expect(await versionsOf(mediaId)).toHaveLength(1);
    // The same upload still finishes where upload:media is enough: an item nobody sees yet.
    const draft = await createVideo(server, { title: 'Draft cut' });
    expect((await uploadOnly.json('POST', `/api/media/${draft.id}/versions`, { uploadId: id })).status).toBe(201);
    expect(await versionsOf(draft.id)).toHaveLength(2);
  });

  // Client routes: signed out 401, staff 401, a client it is not assigned to 404, the client succeeds.
  const clientRoutes: [string, string, () => string, () => unknown, number][] = [
    ['list versions', 'GET', () => `/api/client/media/${item.id}/versions`, () => undefined, 200],
    ['decide', 'PUT', () => `/api/client/media/${item.id}/approval`, () => ({ status: 'approved', version: decideVersion }), 200],
    ['reply to own feedback', 'POST', () => `/api/client/media/feedback/${feedbackId}/replies`, () => ({ text: 'r' }), 201],
    ['reply to own note', 'POST', () => `/api/client/media/timeline-notes/${noteId}/replies`, () => ({ text: 'r' }), 201],
  ];
  test.each(clientRoutes)('client %s: 401 signed out or as staff, 404 for another client, allowed for the assigned one', async (_n, method, p, body, okStatus) => {
    expect((await new Session(server.url).json(method, p(), body())).status).toBe(401);
    expect((await admin.json(method, p(), body())).status).toBe(401);
    expect((await clientB.json(method, p(), body())).status).toBe(404);
    expect((await clientA.json(method, p(), body())).status).toBe(okStatus);
  });
});

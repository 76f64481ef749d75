// Tasks (issue 57 item 4): any note (a client's, staff's or link guest's) made a task with an
// assignee among staff who see the library and a state; listed with the staff's notes; never
// shown to the client or the link's guests; in the staff's NLE markers (done ones marked), never
// in a client's own export; refused for people without edit:media, unknown notes, assignees who
// cannot see the library, and bad states, with nothing written; gone with its note.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser, expectStatus } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { enterLink } from '../helpers/proofing.ts';

let server: TestServer;
let admin: Session;
let client: Session;
let editor: { id: string; username: string; password: string };
let film: { mediaId: number; versionId: number };
let notes: { client: number; staff: number; link: number; token: string; guest: Session };

const task = (noteId: number, body: Record<string, unknown>, as = admin) => as.json('PUT', `/api/admin/media/timeline-notes/${noteId}/task`, body);
const staffList = async () => (await expectStatus(admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${film.mediaId}`))) as { id: number; source: string; task: any }[];
const listed = async (id: number, source: string) => (await staffList()).find((n) => n.id === id && n.source === source)!;
const taskRows = async () => Number((await server.sql.execute('SELECT count(*) AS n FROM note_tasks')).rows[0]!.n);

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server);
  client = await clientSession(server.url, c.username, c.password);
  editor = await createStaffUser(server, { permissions: ['view:media'] });
  const v = await createVideo(server, { title: 'Harbour cut', durationSeconds: 60, clientId: c.clientId });
  const versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [v.id] })).rows[0]!.id);
  film = { mediaId: v.id, versionId };
  const byClient = await expectStatus(client.json('POST', `/api/client/media/${v.id}/timeline-notes`, { mediaId: v.id, noteText: 'Cut the gull', timestampMs: 3000 }), 201);
  const byStaff = await expectStatus(admin.json('POST', `/api/media/${v.id}/timeline-notes`, { text: 'Grade warmer', timestampMs: 5000 }), 201);
  const link = await expectStatus(admin.json('POST', '/api/share-links', { name: 'For legal', mediaIds: [v.id], allowComment: true }), 201);
  const token = new URL(link.url).pathname.split('/').pop()!;
  const guest = await enterLink(server.url, token);
  const byGuest = await expectStatus(guest.json('POST', `/api/share/${token}/media/${v.id}/timeline-notes`, { name: 'Lee (legal)', text: 'Blur the logo', timestampMs: 7000 }), 201);
  notes = { client: byClient.id, staff: byStaff.id, link: byGuest.id, token, guest };
}, 60_000);
afterAll(() => server?.stop());

describe('making notes tasks', () => {
  test.each([
    { name: 'a client’s note', key: 'client' as const, source: 'client', body: {} },
    { name: 'a staff note', key: 'staff' as const, source: 'staff', body: {} },
    { name: 'a link guest’s note', key: 'link' as const, source: 'link', body: { source: 'link' } },
  ])('$name becomes a task: to do, nobody yet; then assigned and done; the staff list shows it', async ({ key, source, body }) => {
    const made = await task(notes[key], body);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.task).toMatchObject({ state: 'todo', assignee: null, closedAt: null });
    const done = await task(notes[key], { ...body, assigneeId: editor.id, state: 'done' });
    expect(done.status).toBe(200);
    expect(done.body.task).toMatchObject({ state: 'done', assignee: { id: editor.id, name: editor.username } });
    expect(done.body.task.closedAt).not.toBeNull();
    expect((await listed(notes[key], source)).task).toEqual(done.body.task);
    // Back to do: no longer closed; the assignee stays when not named.
    const again = await task(notes[key], { ...body, state: 'todo' });
    expect(again.body.task).toMatchObject({ state: 'todo', assignee: { id: editor.id }, closedAt: null });
  });

  test('one task per note: making it again changes it, no second row', async () => {
    const before = await taskRows();
    await expectStatus(task(notes.staff, { state: 'wont_do' }));
    await expectStatus(task(notes.staff, { assigneeId: null }));
    expect(await taskRows()).toBe(before);
    expect((await listed(notes.staff, 'staff')).task).toMatchObject({ state: 'wont_do', assignee: null });
  });

  test('the assignee picker lists active staff who see the library, and only them', async () => {
    const outsider = await createStaffUser(server, { permissions: ['view:enquiries'] });
    const list = (await expectStatus(admin.json('GET', '/api/admin/media/task-assignees'))) as { id: string; name: string }[];
    expect(list.map((a) => a.id)).toContain(editor.id);
    expect(list.map((a) => a.id)).not.toContain(outsider.id);
  });
});

describe('refusals write nothing', () => {
  test.each([
    { name: 'an unknown note', id: () => 999_999, body: {}, status: 404, message: /not found/i },
    { name: 'a link note named as a client note that does not exist', id: () => 999_998, body: { source: 'link' }, status: 404, message: /not found/i },
    { name: 'a state that is not one', id: () => notes.client, body: { state: 'finished' }, status: 400, message: /state must be one of todo, done, wont_do/ },
    { name: 'an unknown field', id: () => notes.client, body: { priority: 'high' }, status: 400, message: /priority/ },
    { name: 'an assignee who cannot see the library', id: () => notes.client, body: { assigneeId: 'outsider' }, status: 400, message: /active staff user who can see the media library/ },
  ])('$name: $status', async ({ id, body, status, message }) => {
    const before = await server.sql.execute('SELECT * FROM note_tasks ORDER BY id');
    const res = await task(id(), body);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect((await server.sql.execute('SELECT * FROM note_tasks ORDER BY id')).rows).toEqual(before.rows);
  });

  test('an inactive staff user cannot be given a task', async () => {
    const gone = await createStaffUser(server, { permissions: ['view:media'] });
    await server.sql.execute({ sql: 'UPDATE users SET is_active = 0 WHERE id = ?', args: [gone.id] });
    const res = await task(notes.client, { assigneeId: gone.id });
    expect(res.status).toBe(400);
    expect((await admin.json('GET', '/api/admin/media/task-assignees')).body.map((a: { id: string }) => a.id)).not.toContain(gone.id);
  });

  test('without edit:media: 403 to make, change, remove or list assignees; a client and a guest get nothing', async () => {
    const viewer = await staffSession(server.url, editor.username, editor.password);
    expect((await task(notes.client, { state: 'done' }, viewer)).status).toBe(403);
    expect((await viewer.json('DELETE', `/api/admin/media/timeline-notes/${notes.client}/task`)).status).toBe(403);
    expect((await viewer.json('GET', '/api/admin/media/task-assignees')).status).toBe(403);
    expect((await task(notes.client, { state: 'done' }, client)).status).toBe(401);
    expect((await task(notes.link, { state: 'done', source: 'link' }, notes.guest)).status).toBe(401);
  });
});

describe('who sees tasks', () => {
  test('the client’s notes and the link’s page carry no task, whatever its state', async () => {
    await expectStatus(task(notes.client, { state: 'done', assigneeId: editor.id }));
    await expectStatus(task(notes.link, { source: 'link', state: 'todo', assigneeId: editor.id }));
    const own = (await expectStatus(client.json('GET', '/api/client/media/timeline-notes'))) as Record<string, unknown>[];
    const mine = own.find((n) => n.id === notes.client)!;
    expect(mine).toBeDefined();
    expect(mine).not.toHaveProperty('task');
    const page = JSON.stringify(await expectStatus(notes.guest.json('GET', `/api/share/${notes.token}`)));
    expect(page).not.toContain('"task"');
    expect(page).not.toContain(editor.username);
  });

  test('the staff NLE markers say which notes are tasks and mark the done ones; the client’s own export does not', async () => {
    await expectStatus(task(notes.client, { state: 'done', assigneeId: editor.id }));
    await expectStatus(task(notes.link, { source: 'link', state: 'todo', assigneeId: null }));
    const csv = await (await admin.get(`/api/media/${film.mediaId}/versions/${film.versionId}/markers?format=csv`)).text();
    expect(csv).toContain(`Task: Done (${editor.username})`);
    expect(csv).toContain('Task: To do (nobody yet)');
    const own = await client.get(`/api/client/media/${film.mediaId}/versions/${film.versionId}/markers?format=csv`);
    expect(own.status).toBe(200);
    expect(await own.text()).not.toContain('Task:');
  });
});

describe('ending a task', () => {
  test('“Not a task” forgets it; a second time is 404; a deleted note takes its task with it', async () => {
    const extra = await expectStatus(admin.json('POST', `/api/media/${film.mediaId}/timeline-notes`, { text: 'Temporary', timestampMs: 9000 }), 201);
    await expectStatus(task(extra.id, { state: 'todo' }));
    expect((await admin.json('DELETE', `/api/admin/media/timeline-notes/${extra.id}/task`)).status).toBe(200);
    expect((await listed(extra.id, 'staff')).task).toBeNull();
    expect((await admin.json('DELETE', `/api/admin/media/timeline-notes/${extra.id}/task`)).status).toBe(404);
    await expectStatus(task(extra.id, { state: 'todo' }));
    await server.sql.execute({ sql: 'DELETE FROM timeline_notes WHERE id = ?', args: [extra.id] });
    expect(Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM note_tasks WHERE timeline_note_id = ?', args: [extra.id] })).rows[0]!.n)).toBe(0);
  });
});

// Text rules (issue 31, item 9) where they matter most: a share visitor's name and comments, and
// the text held inside the SEO settings' JSON. The fuzz test (fuzz-json-endpoints) proves every
// text field of every body refuses the characters; this file shows what is stored instead.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { adminSession, expectStatus } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { createUpload } from '../helpers/tus.ts';
import { sampleImage, upload } from '../helpers/media-uploads.ts';

let server: TestServer;
let admin: Session;
let token: string;
let mediaId: number;

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
  mediaId = (await createVideo(server, { title: 'Rules video' })).id;
  const link = await expectStatus(admin.json('POST', '/api/share-links', { name: 'Rules link', mediaIds: [mediaId], allowComment: true }), 201);
  token = new URL(link.url).pathname.split('/').pop()!;
});
afterAll(() => server?.stop());

async function visitor() {
  const s = new Session(server.url);
  expect((await s.get(`/s/${token}`)).status).toBe(200);
  return s;
}

test.each([
  ['NUL', '\u0000', 'must not contain control characters (found U+0000)'],
  ['NUL inside', 'Ev\u0000e', 'must not contain control characters (found U+0000)'],
  ['right-to-left override', 'Eve\u202Etxt.exe', 'must not contain text-direction control characters (found U+202E)'],
  ['a line break', 'Eve\r\nBcc: x@example.test', 'must be on one line'],
])('a guest name with %s is refused, so nobody comments as "" or on two lines', async (_what, name, problem) => {
  const guest = await visitor();
  const typed = await guest.json('PUT', `/api/share/${token}/name`, { name });
  expect(typed).toEqual({ status: 400, body: { message: `name: Name ${problem}` } });
  const inline = await guest.json('POST', `/api/share/${token}/media/${mediaId}/feedback`, { name, text: 'Looks good', rating: 5 });
  expect(inline).toEqual({ status: 400, body: { message: `name: Name ${problem}` } });
  // Still nameless: the rule that a comment needs a name holds.
  expect((await guest.json('GET', `/api/share/${token}`)).body.guestName).toBe('');
  const nameless = await guest.json('POST', `/api/share/${token}/media/${mediaId}/feedback`, { text: 'Looks good', rating: 5 });
  expect(nameless.status).toBe(400);
  expect(nameless.body.message).toMatch(/^name: /);
  const stored = await server.sql.execute({ sql: "SELECT count(*) AS n FROM share_comments WHERE text = 'Looks good'" });
  expect(Number(stored.rows[0]!.n)).toBe(0);
});

test('multi-line comments keep their lines and tabs; CR LF and lone CR are stored as LF', async () => {
  const guest = await visitor();
  const res = await guest.json('POST', `/api/share/${token}/media/${mediaId}/feedback`, {
    name: 'Eve Guest',
    text: 'Line one\r\nLine two\rLine three\n\tindented',
    rating: 4,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.text).toBe('Line one\nLine two\nLine three\n\tindented');
  const row = await server.sql.execute({ sql: 'SELECT text FROM share_comments WHERE id = ?', args: [res.body.id] });
  expect(row.rows[0]!.text).toBe('Line one\nLine two\nLine three\n\tindented');
});

test.each([
  ['a service name with an override (escaped in the JSON)', { services: '["Corporate \\u202Evideo"]' }, /^services: Services item 1 must not contain text-direction control characters \(found U\+202E\)$/],
  ['a service name on two lines', { services: '["Corporate\\nBcc: x"]' }, /^services: Services item 1 must be on one line$/],
  ['an FAQ question with NUL', { faqs: '[{"question":"Why\\u0000?","answer":"Because."}]' }, /^faqs: FAQs item 1 question must not contain control characters/],
  ['an FAQ answer with ESC', { faqs: '[{"question":"Why?","answer":"\\u001b[31mBecause."}]' }, /^faqs: FAQs item 1 answer must not contain control characters \(found U\+001B\)$/],
])('the SEO settings refuse %s: the text inside the JSON follows the same rules', async (_what, body, message) => {
  const res = await admin.json('PUT', '/api/seo-settings', body);
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(message);
});

test('an FAQ answer may span lines; a role description too, while a role name may not', async () => {
  const faqs = JSON.stringify([{ question: 'How long?', answer: 'Two weeks.\nSometimes three.' }]);
  expect((await admin.json('PUT', '/api/seo-settings', { faqs })).status).toBe(200);
  const role = await admin.json('POST', '/api/roles', { name: 'Colourists', description: 'Grade footage.\r\nDeliver LUTs.' });
  expect(role.status, JSON.stringify(role.body)).toBe(201);
  expect(role.body.description).toBe('Grade footage.\nDeliver LUTs.');
  const twoLines = await admin.json('POST', '/api/roles', { name: 'Colour\nists', description: '' });
  expect(twoLines).toEqual({ status: 400, body: { message: 'name: Name must be on one line' } });
});

// Issue 40, item 6: names people tell apart by sight may not hold characters that draw nothing
// (one name could mimic another), and a file's name follows the text rules as every typed text does.
test.each([
  ['a zero-width space', 'Ev\u200Be', 'U+200B'],
  ['a byte-order mark inside (trimming takes one at either end)', 'Ev\uFEFFe', 'U+FEFF'],
  ['a soft hyphen', 'Ev\u00ADe', 'U+00AD'],
  ['a word joiner', 'Eve\u2060', 'U+2060'],
  ['a Hangul filler (a name that looks blank)', '\u3164', 'U+3164'],
  // Issue 51: decided by Unicode property, not a list.
  ['a tag character (text hidden after the name)', 'Eve\u{E0041}\u{E0042}', 'U+E0041'],
  ['a musical beam control', 'Ev\u{1D173}e', 'U+1D173'],
  ['an interlinear annotation', 'Eve\uFFF9', 'U+FFF9'],
  ['only Braille blanks (a name that looks blank)', '\u2800\u2800', 'U+2800'],
])('a guest name with %s is refused, so it cannot pass for "Eve"', async (_what, name, found) => {
  const guest = await visitor();
  const message = `name: Name must not contain invisible characters (found ${found})`;
  expect(await guest.json('PUT', `/api/share/${token}/name`, { name })).toEqual({ status: 400, body: { message } });
  expect(await guest.json('POST', `/api/share/${token}/media/${mediaId}/feedback`, { name, text: 'Mimic', rating: 5 })).toEqual({ status: 400, body: { message } });
  const stored = await server.sql.execute({ sql: "SELECT count(*) AS n FROM share_comments WHERE text = 'Mimic'" });
  expect(Number(stored.rows[0]!.n)).toBe(0);
});

test('a name with an emoji sequence (ZWJ) or Persian spelling (ZWNJ) is kept as typed; so are staff and client names', async () => {
  const guest = await visitor();
  for (const name of ['Eve \u{1F469}\u200D\u{1F4BB}', '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645']) {
    const res = await guest.json('PUT', `/api/share/${token}/name`, { name });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect((await guest.json('GET', `/api/share/${token}`)).body.guestName).toBe(name);
  }
  const client = await admin.json('POST', '/api/clients', { name: 'Quay\u200BFilms', email: 'quay@example.test', username: 'quay.films', password: 'client-pass-123' });
  expect(client).toEqual({ status: 400, body: { message: 'name: Name must not contain invisible characters (found U+200B)' } });
});

test.each([
  ['a right-to-left override', 'mp\u202Egnp.exe', 'File name must not contain text-direction control characters (found U+202E)'],
  ['CR LF', 'clip.mp4\r\nX-Injected: 1', 'File name must be on one line'],
  ['a zero-width space', 'clip\u200B.mp4', 'File name must not contain invisible characters (found U+200B)'],
  ['NUL', 'clip\u0000.mp4', 'File name must not contain control characters (found U+0000)'],
  ['a tag character', 'clip\u{E0041}.mp4', 'File name must not contain invisible characters (found U+E0041)'],
  ['a private-use character', 'clip\uE000.mp4', 'File name must not contain unassigned or private-use characters (found U+E000)'],
])('a resumable upload whose file name has %s is refused before a byte is staged', async (_what, filename, message) => {
  const before = await server.sql.execute('SELECT count(*) AS n FROM uploads');
  const { res, location } = await createUpload(admin, 1024, { filename });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ message });
  expect(location).toBeNull();
  const after = await server.sql.execute('SELECT count(*) AS n FROM uploads');
  expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n));
});

test('a resumable upload keeps an ordinary file name (folders dropped, accents and spaces kept)', async () => {
  const { res, id } = await createUpload(admin, 1024, { filename: 'C:\\Footage\\Café reel – final.mp4' });
  expect(res.status).toBe(201);
  const row = await server.sql.execute({ sql: 'SELECT filename FROM uploads WHERE id = ?', args: [id!] });
  expect(row.rows[0]!.filename).toBe('Café reel – final.mp4');
  await admin.request('DELETE', `/api/uploads/${id}`, undefined, { 'Tus-Resumable': '1.0.0' });
});

test.each([
  ['a right-to-left override', 'invoice\u202Egnp.exe', 'file: File name must not contain text-direction control characters (found U+202E)'],
  ['a zero-width space', 'photo\u200B.png', 'file: File name must not contain invisible characters (found U+200B)'],
])('a multipart upload whose file name has %s is refused, nothing stored', async (_what, name, message) => {
  const count = async () => Number((await server.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n);
  const before = await count();
  const res = await upload(admin, { title: 'Named file' }, { data: await sampleImage('png', 32, 32), name, type: 'image/png' });
  expect(res).toEqual({ status: 400, body: { message } });
  expect(await count()).toBe(before);
});

// Issue 51: every name follows the rules of names, a role's and the company's included.
test.each([
  ['a role name with a zero-width space', 'POST', '/api/roles', () => ({ name: 'Ad\u200Bmin', description: '' }), 'name: Name must not contain invisible characters (found U+200B)'],
  ['a role name with a tag character', 'POST', '/api/roles', () => ({ name: 'Editors\u{E0041}', description: '' }), 'name: Name must not contain invisible characters (found U+E0041)'],
  ['the company name with a tag character', 'PUT', '/api/branding-settings', () => ({ companyName: 'Aurora\u{E0041}' }), 'companyName: Company name must not contain invisible characters (found U+E0041)'],
  ['a gallery title of Braille blanks', 'POST', '/api/galleries', () => ({ title: '\u2800\u2800' }), 'title: Title must not contain invisible characters (found U+2800)'],
  ['a share link named with a private-use character', 'POST', '/api/share-links', () => ({ name: 'Rough cut \uE000', mediaIds: [mediaId] }), 'name: Name must not contain unassigned or private-use characters (found U+E000)'],
  ['a client named with dots only', 'POST', '/api/clients', () => ({ name: '...', email: 'dots@example.test', username: 'dots.client', password: 'client-pass-123' }), 'name: Name must contain a letter or a digit'],
])('%s is refused', async (_what, method, url, body, message) => {
  expect(await admin.json(method, url, body())).toEqual({ status: 400, body: { message } });
});

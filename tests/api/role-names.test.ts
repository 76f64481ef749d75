// Look-alike role names (issue 19, item 9; issue 31, item 10): names that read the same clash
// (409 naming them), by Unicode's confusable data (UTS #39) after NFKC case folding.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { adminSession, expectStatus } from '../helpers/accounts.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

const roleCount = async () => ((await expectStatus(admin.json('GET', '/api/roles'))) as unknown[]).length;

test.each([
  ['Cyrillic А', '\u0410dmin', 'Admin'],
  ['fullwidth', 'Ａｄｍｉｎ', 'Admin'],
  ['upper case', 'ADMIN', 'Admin'],
  ['Greek Alpha', '\u0391dmin', 'Admin'],
  ['Cyrillic а and і', '\u0430dm\u0456n', 'Admin'],
  ['Cyrillic Ѕ and Т', '\u0405\u0422aff', 'Staff'],
  ['mathematical bold (NFKC)', '𝐒𝐭𝐚𝐟𝐟', 'Staff'],
  // Issue 31, item 10: what the hand-made table let through, now caught by Unicode's own data.
  ['a dotted capital I (U+0130)', 'ADM\u0130N', 'Admin'],
  ['an i with a combining acute (U+0301)', 'Admi\u0301n', 'Admin'],
  ['an i with a combining dot above (U+0307)', 'Admi\u0307n', 'Admin'],
  ['a variation selector (U+FE0F)', 'Staff\uFE0F', 'Staff'],
  ['Cherokee A (U+13AA)', '\u13AADMIN', 'Admin'],
  ['Lisu A (U+A4EE)', '\uA4EEdmin', 'Admin'],
  ['r and n for m', 'Adrnin', 'Admin'],
  ['Lisu S (U+A4E2)', '\uA4E2taff', 'Staff'],
])('a new role named with %s (%j) clashes with %s: 409 naming both', async (_label, name, existing) => {
  const before = await roleCount();
  const res = await admin.json('POST', '/api/roles', { name, description: '' });
  expect(res.status).toBe(409);
  expect(res.body.message).toContain(`"${name}"`);
  if (name.toLowerCase() !== existing.toLowerCase()) expect(res.body.message).toContain(`"${existing}"`);
  expect(await roleCount()).toBe(before);
});

test('renaming a role onto a look-alike of another is refused too; its own look-alike is fine', async () => {
  const role = await expectStatus(admin.json('POST', '/api/roles', { name: 'Editors', description: '' }), 201);
  const clash = await admin.json('PUT', `/api/roles/${role.id}`, { name: 'Ｓｔａｆｆ', description: '' });
  expect(clash.status).toBe(409);
  expect(clash.body.message).toContain('"Staff"');
  const other = await admin.json('POST', '/api/roles', { name: '\u0415ditors', description: '' });
  expect(other.status).toBe(409);
  expect((await admin.json('PUT', `/api/roles/${role.id}`, { name: 'EDITORS', description: '' })).status).toBe(200);
});

test.each([
  ['Cherokee A', '\u13AADMIN', 'Admin'],
  ['a variation selector', 'Staff\uFE0F', 'Staff'],
  ['a dotted capital I', 'ADM\u0130N', 'Admin'],
])('renaming a role to a look-alike with %s is refused as well', async (label, name, existing) => {
  const role = await expectStatus(admin.json('POST', '/api/roles', { name: `Renamed for ${label}`, description: '' }), 201);
  const res = await admin.json('PUT', `/api/roles/${role.id}`, { name, description: '' });
  expect(res.status).toBe(409);
  expect(res.body.message).toContain(`"${existing}"`);
  expect((await admin.json('GET', '/api/roles')).body.find((r: { id: number }) => r.id === role.id).name).toBe(`Renamed for ${label}`);
});

test.each(['Admins', 'Ádmin', 'Adm1n'])('a really different name (%s) is accepted', async (name) => {
  expect((await admin.json('POST', '/api/roles', { name, description: '' })).status).toBe(201);
});

test('registration holds usernames to the same ASCII rule (before saying registration is closed)', async () => {
  const res = await new Session(server.url).json('POST', '/api/register', { username: '\u0430dmin', email: 'lookalike2@studio.test', password: 'secret-words-12345' });
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/^username: /);
});

test('usernames cannot use look-alike letters at all (ASCII letters, digits, . _ - only)', async () => {
  const res = await admin.json('POST', '/api/users', {
    username: '\u0430dmin',
    email: 'lookalike@studio.test',
    password: 'secret-words-123',
    forename: 'A',
    surname: 'B',
    displayName: 'A B',
  });
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/username/i);
});

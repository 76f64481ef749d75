// Look-alike role names (issue 19, item 9): names that read the same clash (409 naming them).
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
  ['a zero-width space inside', 'Ad\u200Bmin', 'Admin'],
  ['Cyrillic Ѕ and Т', '\u0405\u0422aff', 'Staff'],
  ['mathematical bold (NFKC)', '𝐒𝐭𝐚𝐟𝐟', 'Staff'],
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

test.each(['Admins', 'Ádmin', 'Adm1n'])('a really different name (%s) is accepted', async (name) => {
  expect((await admin.json('POST', '/api/roles', { name, description: '' })).status).toBe(201);
});

test('usernames cannot use look-alike letters at all (ASCII letters, digits, . _ - only)', async () => {
  const res = await admin.json('POST', '/api/users', {
    username: '\u0430dmin',
    email: 'lookalike@studio.test',
    password: 'secret-123',
    forename: 'A',
    surname: 'B',
    displayName: 'A B',
  });
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/username/i);
});

// POST /api/contact: validation, storage, honeypot (the rate limit has its own file and server,
// because every request here comes from the same address). Mind the budget: this file stores
// exactly five enquiries, the most one address may send in 10 minutes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  projectType: 'music-video',
  message: 'We would like a music video for our new single.',
};

async function rows() {
  return (await server.sql.execute('SELECT * FROM enquiries ORDER BY id')).rows;
}

describe('POST /api/contact', () => {
  test('stores a valid enquiry as new and answers 201 with its id', async () => {
    const res = await new Session(server.url).json('POST', '/api/contact', { ...valid, firstName: '  Ada  ', website: '' });
    expect(res.status).toBe(201);
    expect(res.body.id).toEqual(expect.any(Number));
    const [row] = (await server.sql.execute({ sql: 'SELECT * FROM enquiries WHERE id = ?', args: [res.body.id] })).rows;
    expect(row).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      project_type: 'music-video',
      message: valid.message,
      status: 'new',
    });
    expect(Math.abs(Number(row!.created_at) - Date.now())).toBeLessThan(60_000);
  });

  test.each([
    ['projectType left empty', { projectType: '' }, ''],
    ['projectType absent', { projectType: undefined }, ''],
    ['every listed projectType: event', { projectType: 'event' }, 'event'],
  ])('accepts %s', async (_label, change, stored) => {
    const res = await new Session(server.url).json('POST', '/api/contact', { ...valid, ...change });
    expect(res.status).toBe(201);
    const r = await server.sql.execute({ sql: 'SELECT project_type FROM enquiries WHERE id = ?', args: [res.body.id] });
    expect(r.rows[0]!.project_type).toBe(stored);
  });

  test.each([
    ['firstName', 'missing', { firstName: undefined }],
    ['firstName', 'blank', { firstName: '   ' }],
    ['firstName', 'too long', { firstName: 'x'.repeat(101) }],
    ['lastName', 'missing', { lastName: undefined }],
    ['lastName', 'too long', { lastName: 'x'.repeat(101) }],
    ['email', 'missing', { email: undefined }],
    ['email', 'not an email', { email: 'ada-at-example' }],
    ['email', 'too long', { email: `${'a'.repeat(250)}@example.test` }],
    ['message', 'missing', { message: undefined }],
    ['message', 'blank', { message: '' }],
    ['message', 'too long', { message: 'x'.repeat(5001) }],
    ['projectType', 'not a listed value', { projectType: 'wedding' }],
    ['projectType', 'a label instead of a value', { projectType: 'Music Video' }],
    ['firstName', 'a number', { firstName: 42 }],
  ])('rejects %s (%s) with 400 naming the field and stores nothing', async (field, _why, change) => {
    const before = (await rows()).length;
    const res = await new Session(server.url).json('POST', '/api/contact', { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect((await rows()).length).toBe(before);
  });

  test('accepts the longest allowed values', async () => {
    const res = await new Session(server.url).json('POST', '/api/contact', {
      ...valid,
      firstName: 'f'.repeat(100),
      lastName: 'l'.repeat(100),
      message: 'm'.repeat(5000),
    });
    expect(res.status).toBe(201);
  });

  test.each([
    ['a JSON array', '[1,2]'],
    ['malformed JSON', '{"firstName":'],
  ])('rejects %s with 400', async (_label, raw) => {
    const res = await new Session(server.url).request('POST', '/api/contact', raw, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toEqual(expect.any(String));
  });

  test.each([
    ['a filled honeypot', { ...valid, website: 'http://spam.example' }],
    ['a filled honeypot with otherwise invalid fields', { email: 'nope', website: 'x' }],
  ])('%s answers 201 but stores nothing', async (_label, body) => {
    const before = await rows();
    const res = await new Session(server.url).json('POST', '/api/contact', body);
    expect(res.status).toBe(201);
    expect(res.body).toHaveProperty('id');
    expect(await rows()).toEqual(before);
  });

  test('a cross-site POST is refused', async () => {
    const res = await new Session(server.url).request('POST', '/api/contact', JSON.stringify(valid), {
      'Content-Type': 'application/json',
      Origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
  });
});

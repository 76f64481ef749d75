// More than 5 enquiries from one address in 10 minutes answers 429. Its own server, so that no
// other test's enquiries count against the window.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const enquiry = (n: number) => ({ firstName: 'Rate', lastName: `Test ${n}`, email: 'rate@example.test', projectType: '', message: `Enquiry ${n}` });
const count = async () => Number((await server.sql.execute('SELECT COUNT(*) FROM enquiries')).rows[0]![0]);

test('the sixth enquiry within 10 minutes answers 429 with a clear message and is not stored', async () => {
  // Invalid and honeypot submissions do not use up the allowance.
  expect((await new Session(server.url).json('POST', '/api/contact', { ...enquiry(0), email: 'bad' })).status).toBe(400);
  expect((await new Session(server.url).json('POST', '/api/contact', { ...enquiry(0), website: 'bot' })).status).toBe(201);
  for (let n = 1; n <= 5; n++) {
    expect((await new Session(server.url).json('POST', '/api/contact', enquiry(n))).status).toBe(201);
  }
  const res = await new Session(server.url).json('POST', '/api/contact', enquiry(6));
  expect(res.status).toBe(429);
  expect(res.body.message).toMatch(/wait 10 minutes/i);
  expect(await count()).toBe(5);
});

test('parallel requests cannot squeeze past the limit', async () => {
  // The window is already full from the test above; none of these may be stored.
  const answers = await Promise.all([1, 2, 3, 4].map((n) => new Session(server.url).json('POST', '/api/contact', enquiry(10 + n))));
  expect(answers.map((a) => a.status)).toEqual([429, 429, 429, 429]);
  expect(await count()).toBe(5);
});

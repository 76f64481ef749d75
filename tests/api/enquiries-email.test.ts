// Email notification of new enquiries against a real local SMTP server (smtp-server).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { Session } from '../helpers/http.ts';
import { Mailbox, parse } from '../helpers/mailbox.ts';
import { adminSession, createClientWithLogin } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';

const enquiry = (n: number) => ({
  firstName: 'Grace',
  lastName: `Hopper ${n}`,
  email: `grace${n}@example.test`,
  projectType: 'music-video',
  message: `Please film our band, enquiry ${n}.\nSecond line <b>not html</b> & more.`,
});

const stored = async (server: TestServer, id: number) =>
  (await server.sql.execute({ sql: 'SELECT * FROM enquiries WHERE id = ?', args: [id] })).rows[0];

describe('with SMTP_URL and ENQUIRY_NOTIFY_TO', () => {
  const mailbox = new Mailbox();
  let server: TestServer;
  beforeAll(async () => {
    await mailbox.listen();
    server = await startServer({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
        ENQUIRY_NOTIFY_TO: 'studio@example.test',
        ENQUIRY_NOTIFY_FROM: 'Studio Website <website@example.test>',
        SITE_URL: 'https://studio.example',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await mailbox.close();
  });
  beforeEach(() => mailbox.reset());

  test('each new enquiry is emailed to the studio with its fields', async () => {
    const res = await new Session(server.url).json('POST', '/api/contact', enquiry(1));
    expect(res.status).toBe(201);
    const [mail] = await mailbox.waitForMessages(1);
    expect(mail!.rcptTo).toEqual(['studio@example.test']);
    expect(mail!.mailFrom).toBe('website@example.test');
    const { headers, body } = parse(mail!.raw);
    expect(headers.get('subject')).toBe('New enquiry from Grace Hopper 1 (Music Video)');
    expect(headers.get('reply-to')).toContain('grace1@example.test');
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    expect(body).toContain('Name: Grace Hopper 1');
    expect(body).toContain('Email: grace1@example.test');
    expect(body).toContain('Project type: Music Video');
    // Quoted line by line (issue 31): the visitor's lines never pass for the email's own.
    expect(body).toContain('Message:\n> Please film our band, enquiry 1.\n> Second line <b>not html</b> & more.');
    expect(body).toContain('https://studio.example/admin/enquiries');
    expect(await stored(server, res.body.id)).toMatchObject({ email: 'grace1@example.test', status: 'new' });
  });

  test('the visitor gets the answer without waiting for the email', async () => {
    let release!: () => void;
    mailbox.holdData = new Promise((r) => (release = r));
    const answer = new Session(server.url).json('POST', '/api/contact', enquiry(2));
    const timeout = new Promise<never>((_r, reject) => setTimeout(() => reject(new Error('POST waited for SMTP')), 5000));
    const res = await Promise.race([answer, timeout]);
    expect(res.status).toBe(201);
    expect(mailbox.received).toHaveLength(0);
    release();
    const [mail] = await mailbox.waitForMessages(1);
    expect(parse(mail!.raw).headers.get('subject')).toContain('Grace Hopper 2');
  });

  test('a refused send is retried and then delivered', async () => {
    mailbox.onRcpt = (attempt) => (attempt === 1 ? Object.assign(new Error('Mailbox busy'), { responseCode: 451 }) : null);
    const res = await new Session(server.url).json('POST', '/api/contact', enquiry(3));
    expect(res.status).toBe(201);
    const [mail] = await mailbox.waitForMessages(1);
    expect(mailbox.rcptAttempts).toBe(2);
    expect(parse(mail!.raw).body).toContain('Name: Grace Hopper 3');
    expect(server.output()).toMatch(new RegExp(`Enquiry ${res.body.id}: notification email attempt 1 failed, retrying`));
  });

  test('when the SMTP server keeps refusing, the enquiry is still stored and the failure logged', async () => {
    mailbox.onRcpt = () => Object.assign(new Error('Relay denied'), { responseCode: 550 });
    const started = Date.now();
    const res = await new Session(server.url).json('POST', '/api/contact', enquiry(4));
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stored(server, res.body.id)).toMatchObject({ first_name: 'Grace', last_name: 'Hopper 4', status: 'new' });
    // Four attempts, 1 s + 2 s + 4 s apart, then it gives up.
    const deadline = Date.now() + 20_000;
    const givenUp = new RegExp(`Enquiry ${res.body.id}: notification email failed 4 times, giving up`);
    while (!givenUp.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(server.output()).toMatch(givenUp);
    expect(mailbox.rcptAttempts).toBe(4);
    expect(mailbox.received).toHaveLength(0);
    // Still in the inbox, untouched.
    expect(await stored(server, res.body.id)).toMatchObject({ status: 'new' });
  });
});

describe('without ENQUIRY_NOTIFY_TO', () => {
  const mailbox = new Mailbox();
  let server: TestServer;
  beforeAll(async () => {
    await mailbox.listen();
    server = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${mailbox.port}` } });
  });
  afterAll(async () => {
    await server?.stop();
    await mailbox.close();
  });

  test('nothing is sent, and the enquiry is stored', async () => {
    const res = await new Session(server.url).json('POST', '/api/contact', enquiry(5));
    expect(res.status).toBe(201);
    expect(await stored(server, res.body.id)).toMatchObject({ status: 'new' });
    // A positive marker on the same SMTP server: an item shared with a client, asked for after
    // the enquiry was answered. An enquiry email starts sending before that answer, so had there
    // been one it would have connected first; the marker is the only message and connection.
    const admin = await adminSession(server.url);
    const client = await createClientWithLogin(server, { name: 'Marker Client' });
    const item = await createVideo(server, { title: 'Marker Film' });
    expect((await admin.json('POST', `/api/media/${item.id}/clients/${client.clientId}`)).status).toBe(201);
    const [mail] = await mailbox.waitForMessages(1);
    expect(parse(mail!.raw).headers.get('subject')).toBe('New to review: Marker Film');
    expect(mailbox.received).toHaveLength(1);
    expect(mailbox.connections).toBe(1);
  });
});

// Issue 19 #18: the Contact Info tab shows the details the site actually uses (placeholders
// included), and the dashboard warns while placeholder details are live.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';

let server: TestServer;
let admin: Session;
beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(() => server?.stop());

// React's server render separates text parts with empty comments.
const page = async (path: string) => (await (await admin.get(path)).text()).replaceAll('<!-- -->', '');
const WARNING = 'Placeholder contact details are live.';
const EMPTY = { contactEmail: '', contactPhone: '', contactAddress: '', instagramUrl: '', facebookUrl: '', linkedinUrl: '' };

describe('placeholder contact details', () => {
  test('on a fresh install the tab shows the placeholders the footer shows, and the dashboard warns', async () => {
    const footer = await (await fetch(`${server.url}/contact`)).text();
    expect(footer).toContain('hello@studio.example');
    const tab = await page('/admin/website-customization?tab=contact');
    expect(tab).toContain('value="hello@studio.example"');
    expect(tab).toContain('value="+44 (0)116 000 0000"');
    expect(tab).toContain('Leicestershire, United Kingdom');
    expect(tab).toContain('placeholder details for email, phone, address');
    const dash = await page('/admin/dashboard');
    expect(dash).toContain(WARNING);
    expect(dash).toContain('/admin/website-customization?tab=contact');
  });

  test.each([
    [{ contactEmail: 'studio@northlight.test' }, 'phone, address'],
    [{ contactEmail: 'studio@northlight.test', contactPhone: '0116 496 0000' }, 'address'],
  ])('with %o set, the warning names the rest (%s)', async (set, rest) => {
    expect((await admin.put('/api/contact-info', { ...EMPTY, ...set })).status).toBe(200);
    const dash = await page('/admin/dashboard');
    expect(dash).toContain(WARNING);
    expect(dash).toContain(`placeholder ${rest}`);
  });

  test('with every detail set there is no warning and the tab shows the stored values', async () => {
    const real = { ...EMPTY, contactEmail: 'studio@northlight.test', contactPhone: '0116 496 0000', contactAddress: '1 Mill Lane, Leicester' };
    expect((await admin.put('/api/contact-info', real)).status).toBe(200);
    expect(await page('/admin/dashboard')).not.toContain(WARNING);
    const tab = await page('/admin/website-customization?tab=contact');
    expect(tab).toContain('value="studio@northlight.test"');
    expect(tab).not.toContain('placeholder details for');
  });

  test('saving the placeholder text itself still counts as a placeholder', async () => {
    expect((await admin.put('/api/contact-info', { ...EMPTY, contactEmail: 'hello@studio.example', contactPhone: '0116 496 0000', contactAddress: '1 Mill Lane' })).status).toBe(200);
    expect(await page('/admin/dashboard')).toContain('placeholder email');
  });
});

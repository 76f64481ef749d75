// Stored cross-site scripting: every text a user can store (media titles, notes and tags,
// client details, feedback, timeline notes, enquiries, role and user names, branding, SEO and
// contact settings) is set to markup that closes a script element and opens another. Each
// screen that shows it (public pages incl. JSON-LD, admin and portal) is then loaded in a real
// browser: the payload must appear as text, never as elements. The CSP would block an injected
// inline script anyway, so the DOM itself is inspected too: no injected <script>/<img>/<svg>,
// no event-handler attributes, every JSON-LD block parses, no CSP violation fired.
// It rewrites branding, SEO and contact settings; like every file it has a server of its own.
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, ADMIN } from './fixtures.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';

const P = '</script><script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=2"><svg onload="window.__xss=3">';
const LONG = `${P}${IMG}`;

interface Stored {
  staffCookies: Map<string, string>;
  clientCookies: Map<string, string>;
}

const storedOn = new WeakMap<TestServer, Stored>();

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** Writes the payload into every stored text through the real API (once per server). */
async function storePayloads(server: TestServer): Promise<Stored> {
  const done = storedOn.get(server);
  if (done) return done;
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  await ok(admin.json('PUT', '/api/branding-settings', { companyName: P, showCompanyText: true }), 'branding');
  await ok(
    admin.json('PUT', '/api/seo-settings', {
      metaTitle: P,
      metaDescription: LONG,
      metaKeywords: P,
      businessName: P,
      businessDescription: LONG,
      streetAddress: P,
      addressLocality: P,
      services: JSON.stringify([P, IMG]),
      faqs: JSON.stringify([{ question: P, answer: LONG }]),
      enableStructuredData: true,
      enableOpenGraph: true,
      enableTwitterCards: true,
    }),
    'seo',
  );
  await ok(admin.json('PUT', '/api/contact-info', { contactAddress: LONG }), 'contact info');
  const client = await ok(
    admin.json('POST', '/api/clients', { name: P, email: 'xss@client.test', company: P, phone: '', notes: LONG, username: 'xss.client', password: 'xss-client-pass' }),
    'client',
  );
  const video = await createVideo(server, { title: P, notes: LONG, tags: [P, 'ok'], clientId: client.id, durationSeconds: 3 });
  await ok(admin.json('PUT', `/api/media/${video.id}`, { isFeatured: true, showInPortfolio: true, title: P, notes: LONG }), 'media flags');
  const portal = await clientSession(server.url, 'xss.client', 'xss-client-pass');
  await ok(portal.json('POST', `/api/client/media/${video.id}/feedback`, { mediaId: video.id, feedbackText: LONG, rating: 4 }), 'feedback');
  await ok(portal.json('POST', `/api/client/media/${video.id}/timeline-notes`, { mediaId: video.id, timestampSeconds: 1, noteText: LONG }), 'timeline note');
  await ok(new Session(server.url).json('POST', '/api/contact', { firstName: P, lastName: 'Smith', email: 'xss@enquiry.test', message: LONG }), 'enquiry');
  await ok(admin.json('POST', '/api/roles', { name: P, description: LONG }), 'role');
  await ok(
    admin.json('POST', '/api/users', { username: 'xss.user', email: 'xss@user.test', forename: P, surname: 'User', displayName: P, password: 'xss-user-password' }),
    'user',
  );
  const stored = { staffCookies: admin.cookies, clientCookies: portal.cookies };
  storedOn.set(server, stored);
  return stored;
}

async function useCookies(context: BrowserContext, server: TestServer, cookies: Map<string, string>) {
  await context.addCookies([...cookies].map(([name, value]) => ({ name, value, url: server.url })));
}

/** Records dialogs and CSP violations from the first script on. */
async function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(() => {
    // Every visit adds this script again: one recorder per document, or each report counts twice.
    if ((window as any).__violations) return;
    (window as any).__violations = [];
    // Injected markup shows up as blocked inline code or handlers; the app itself causes none.
    document.addEventListener('securitypolicyviolation', (e) => (window as any).__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return dialogs;
}

/** Everything that would show an injection in this document. */
async function inspect(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const w = window as any;
    if (w.__xss !== undefined) found.push(`window.__xss = ${w.__xss}`);
    for (const s of Array.from(document.querySelectorAll('script'))) {
      const text = s.textContent ?? '';
      if (s.type === 'application/ld+json') {
        try {
          JSON.parse(text);
        } catch {
          found.push(`JSON-LD that does not parse: ${text.slice(0, 120)}`);
        }
      } else if (text.includes('__xss')) found.push(`script element with the payload: ${text.slice(0, 120)}`);
    }
    for (const el of Array.from(document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]'))) found.push(`injected element: ${el.outerHTML.slice(0, 120)}`);
    for (const v of w.__violations ?? []) found.push(`CSP violation: ${v}`);
    const jsonLd = Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((s) => s.textContent ?? '');
    return { found, text: document.body.innerText, title: document.title, jsonLd };
  });
}

/**
 * A positive control instead of a pause: an image with an inline handler and the payload's own
 * failing source, added after everything on the page. The CSP blocks its handler and reports
 * that; once the report is in, an injected payload image (earlier in the document) has failed
 * and reported too, and so has any blocked inline script. The control and its one report go.
 */
async function settled(page: Page) {
  await page.evaluate(async () => {
    const w = window as any;
    const before = w.__violations.length;
    const img = document.createElement('img');
    img.setAttribute('onerror', 'void 0');
    const failed = new Promise<void>((resolve) => img.addEventListener('error', () => resolve(), { once: true }));
    img.src = 'x';
    document.body.append(img);
    await failed;
    for (let i = 0; i < 500 && w.__violations.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    img.remove();
    if (w.__violations.length === before) throw new Error('the control image reported no CSP violation');
    w.__violations.splice(w.__violations.length - 1, 1);
  });
}

async function visit(page: Page, url: string, expectText: string[] = ['window.__xss=1']) {
  const dialogs = await watch(page);
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  // Islands render after hydration: wait for the payload to show up as text.
  for (const t of expectText) await expect(page.locator('body')).toContainText(t, { timeout: 15_000 });
  await settled(page);
  const r = await inspect(page);
  expect(r.found, url).toEqual([]);
  expect(dialogs, url).toEqual([]);
  return r;
}

/** Opens a detail dialog with one click: the click may come before hydration and must not be lost. */
async function openDetail(page: Page, opener: ReturnType<Page['locator']>) {
  await opener.click();
  await expect(page.getByRole('dialog')).toBeVisible();
}

test.describe('stored XSS renders as text', () => {
  test.describe.configure({ mode: 'serial' });

  test('public pages: nav, footer, titles, media grids, SEO head and JSON-LD', async ({ page, server }) => {
    await storePayloads(server);
    let jsonLdWithPayload = 0;
    for (const url of ['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy']) {
      const r = await visit(page, url);
      expect(r.title, `${url} <title>`).toContain('window.__xss=1');
      if (r.jsonLd.some((j) => j.includes('__xss'))) jsonLdWithPayload++;
    }
    // The structured data really carried the payload (as data), so the escaping was exercised.
    expect(jsonLdWithPayload).toBeGreaterThan(0);
    // The media title itself on the featured grid and the portfolio.
    await visit(page, '/portfolio', [P]);
  });

  test('admin screens: dashboard, media, clients, enquiries, users, roles, website settings', async ({ page, context, server }) => {
    const { staffCookies } = await storePayloads(server);
    await useCookies(context, server, staffCookies);
    for (const url of ['/admin/dashboard', '/admin/media', '/admin/clients', '/admin/enquiries', '/admin/users', '/admin/roles', '/admin/website-customization']) {
      await visit(page, url, []);
    }
    // Lists that show the stored text.
    await visit(page, '/admin/media', [P]);
    await visit(page, '/admin/clients', [P]);
    await visit(page, '/admin/enquiries', [P]);
    await visit(page, '/admin/users', [P]);
    await visit(page, '/admin/roles', [P]);
    // Details: the enquiry and the media item (notes, feedback).
    await visit(page, '/admin/enquiries', [P]);
    await page.getByTestId('enquiry-row').first().click();
    await expect(page.locator('body')).toContainText('onerror=', { timeout: 15_000 });
    expect((await inspect(page)).found).toEqual([]);
    await visit(page, '/admin/media', [P]);
    await openDetail(page, page.getByTestId('media-card').first().getByRole('button', { name: /^Open / }));
    const tabs = page.getByRole('dialog').getByRole('tab');
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
      await settled(page);
      expect((await inspect(page)).found, `media detail tab ${i}`).toEqual([]);
    }
  });

  test('client portal: media, notes, feedback and timeline', async ({ page, context, server }) => {
    const { clientCookies } = await storePayloads(server);
    await useCookies(context, server, clientCookies);
    await visit(page, '/client/dashboard', [P]);
    await openDetail(page, page.getByTestId('media-card').first());
    const tabs = page.getByRole('dialog').getByRole('tab');
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
      await settled(page);
      expect((await inspect(page)).found, `portal detail tab ${i}`).toEqual([]);
    }
    await expect(page.getByRole('dialog')).toContainText('onerror=');
  });
});

// Download names (issue 19, item 7): a cleaned file name (or title) with the extension of the
// detected type, never the uploader's; safe RFC 6266 / 5987 Content-Disposition.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { sampleImage, upload } from '../helpers/media-uploads.ts';

let server: TestServer;
let admin: Session;
let png: { id: number; url: string };

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const r = await upload(admin, { title: 'Polyglot' }, { data: await sampleImage('png', 64, 64), name: 'poly.html', type: 'text/html' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  png = r.body;
});
afterAll(() => server?.stop());

/** Splits the header into its parameters the way RFC 6266 reads them. */
function parse(cd: string) {
  const m = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(cd);
  expect(m, cd).not.toBeNull();
  return { fallback: m![1]!, name: decodeURIComponent(m![2]!) };
}

test.each([
  ['an HTML name on a PNG', 'poly.html', 'Polyglot', 'poly.png'],
  ['no extension at all', 'photo', 'Polyglot', 'photo.png'],
  ['a right-to-left override', 'invoice\u202Egnp.exe', 'Polyglot', 'invoicegnp.png'],
  ['other invisible formatting (LRI, ZWJ, BOM)', '\u2066a\u200Db\uFEFF.png', 'Polyglot', 'ab.png'],
  ['control characters and line breaks', 'a\u0001b\r\nc\u0007\u009B.png', 'Polyglot', 'abc.png'],
  ['a quoted filename* injection', 'x"; filename*=UTF-8\'\'evil.html', 'Polyglot', 'x filename=UTF-8evil.png'],
  ['path separators', '../../etc/passwd', 'Polyglot', 'passwd.png'],
  ['Windows path separators', 'C:\\Users\\me\\holiday.jpeg', 'Polyglot', 'holiday.png'],
  ['only a dot file: the title instead', '.htaccess', 'Brand film \u202E2026', 'Brand film 2026.png'],
  ['a title with slashes: no folders from it either (issue 40)', '.htaccess', 'Before/After \\ cut', 'BeforeAfter cut.png'],
  ['nothing usable at all', '\u202E', '""', 'media.png'],
  ['non-Latin letters kept', 'Café reel – “final”.mov', 'Polyglot', 'Café reel – “final”.png'],
])('%s: %j → %j', async (_label, filename, title, expected) => {
  await server.sql.execute({ sql: 'UPDATE media SET filename = ?, title = ? WHERE id = ?', args: [filename, title, png.id] });
  const res = await admin.get(`${png.url}?download=1`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  const cd = res.headers.get('content-disposition')!;
  const { fallback, name } = parse(cd);
  expect(name).toBe(expected);
  expect(name).not.toMatch(/[\p{Cc}\p{Cf}"\\/]/u);
  expect(fallback).toMatch(/^[\x20-\x7e]+\.png$/);
});

test('a derivative download is named after the item with the derivative\'s own type', async () => {
  await server.sql.execute({ sql: 'UPDATE media SET filename = ? WHERE id = ?', args: ['poly.html', png.id] });
  const thumb = png.url.replace(/original\.\w+$/, 'thumb.webp');
  const res = await admin.get(`${thumb}?download=1`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  expect(parse(res.headers.get('content-disposition')!).name).toBe('poly-thumb.webp');
});

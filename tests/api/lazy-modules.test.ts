// Modules a deployment does not use are not loaded (issue 43): a web process on local disk,
// without SMTP_URL, that served public pages, the admin area, the portal's sign-in and the API
// holds no S3 SDK, no tus S3 store, no nodemailer and no sharp in its module graph. The same
// process loads sharp once it makes an image (so the check would see it), and still no S3 or mail.
// Browser-only modules are not in the server bundle at all (issue 51: tus-js-client, rendered
// with the admin layout, pulled in signal-exit, which killed the process when it was stopped).
// A first start with demo content makes the demo's images in a process of its own, so the web
// process that seeded them holds no sharp either (issue 51: it kept about 40 MB of their work).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, OUT_DIR, ROOT, startServer, type TestServer } from '../helpers/server.ts';
import { staffSession, type Session } from '../helpers/http.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';
import { importSpecifiers } from '../helpers/import-graph.ts';

const HOOK = pathToFileURL(path.join(ROOT, 'tests/helpers/loaded-modules.mjs')).href;
const S3 = /\/node_modules\/(@aws-sdk|@smithy|@tus\/s3-store)\//;
const MAIL = /\/node_modules\/nodemailer\//;
const SHARP = /\/node_modules\/(sharp|@img)\//;
/** The islands' browser-only packages, and what tus-js-client's Node build brings with it. */
const BROWSER_ONLY = ['tus-js-client', 'hls.js', 'proper-lockfile', 'signal-exit'];
const BROWSER_ONLY_RE = new RegExp(`/node_modules/(${BROWSER_ONLY.join('|').replaceAll('.', '\\.')})/`);

let server: TestServer;
let staff: Session;
let listFile: string;

/** The URLs the server process has loaded so far. */
async function loadedModules(of = server, file = listFile): Promise<string[]> {
  fs.rmSync(file, { force: true });
  of.proc.kill('SIGUSR2');
  return until('the module list', async () => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as string[]) : null));
}

beforeAll(async () => {
  listFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loaded-modules-')), 'list.json');
  server = await startServer({ env: { NODE_OPTIONS: `--import=${HOOK}`, LOADED_MODULES_FILE: listFile } });
  staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await server?.stop();
  if (listFile) fs.rmSync(path.dirname(listFile), { recursive: true, force: true });
});

test('after pages, the admin area and the API: no S3 SDK, no tus S3 store, no nodemailer, no sharp, no browser-only module', async () => {
  for (const p of ['/', '/portfolio', '/services', '/about', '/contact', '/client/login', '/api/health']) await (await fetch(server.url + p)).arrayBuffer();
  for (const p of ['/admin/dashboard', '/admin/media', '/admin/clients', '/api/media', '/api/clients', '/api/notifications']) expect((await staff.get(p)).status).toBe(200);
  const loaded = await loadedModules();
  // The list is real: it holds what the app runs on.
  expect(loaded.some((u) => u.includes('/node_modules/react-dom/'))).toBe(true);
  expect(loaded.some((u) => u.includes(pathToFileURL(path.join(OUT_DIR, 'runtime', 'runtime.mjs')).href))).toBe(true);
  expect(loaded.filter((u) => S3.test(u) || MAIL.test(u) || SHARP.test(u) || BROWSER_ONLY_RE.test(u))).toEqual([]);
  // Plain JavaScript only: no TypeScript stripped at run time.
  expect(loaded.filter((u) => u.endsWith('.ts'))).toEqual([]);
});

test('an image upload loads sharp, and still no S3 SDK or nodemailer', async () => {
  await uploadImage(staff);
  const loaded = await loadedModules();
  expect(loaded.some((u) => SHARP.test(u))).toBe(true);
  expect(loaded.filter((u) => S3.test(u) || MAIL.test(u))).toEqual([]);
});

test('the server bundle imports no browser-only module, not even lazily', () => {
  const files = fs.readdirSync(OUT_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => /^(server|runtime)\//.test(f) && f.endsWith('.mjs'));
  expect(files.length).toBeGreaterThan(10);
  const imports = files.flatMap((f) => importSpecifiers(fs.readFileSync(path.join(OUT_DIR, f), 'utf8')).map((spec) => ({ file: f, spec })));
  // The scan is real: it sees the server's own packages.
  expect(imports.some((i) => i.spec === '@libsql/client')).toBe(true);
  expect(imports.filter((i) => BROWSER_ONLY.some((p) => i.spec === p || i.spec.startsWith(`${p}/`)))).toEqual([]);
});

test('a first start with demo content: the demo media and gallery are made, and the web process holds no sharp', async () => {
  const file = path.join(path.dirname(listFile), 'demo.json');
  // It listens once the demo is made: a minute or more on a busy machine.
  const demo = await startServer({ env: { DEMO_CONTENT: 'true', WORKER: 'off', NODE_OPTIONS: `--import=${HOOK}`, LOADED_MODULES_FILE: file }, startTimeoutMs: 150_000 });
  try {
    const images = await demo.sql.execute("SELECT count(*) AS n FROM media WHERE type = 'image' AND thumbnail_url IS NOT NULL");
    const gallery = await demo.sql.execute('SELECT count(*) AS n FROM gallery_images');
    expect(Number(images.rows[0]!.n)).toBeGreaterThan(8);
    expect(Number(gallery.rows[0]!.n)).toBe(8);
    for (const p of ['/', '/portfolio', '/services', '/about']) expect((await fetch(demo.url + p)).status).toBe(200);
    const loaded = await loadedModules(demo, file);
    expect(loaded.some((u) => u.includes('/node_modules/react-dom/'))).toBe(true);
    expect(loaded.filter((u) => SHARP.test(u))).toEqual([]);
  } finally {
    await demo.stop();
  }
}, 240_000);

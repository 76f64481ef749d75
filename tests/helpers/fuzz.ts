// Hostile-input helpers for the fuzz and fault tests: discovers the JSON write endpoints from
// the source tree, builds malformed bodies, and fingerprints the whole database so a test can
// prove a request changed nothing.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { ROOT } from './server.ts';

export interface DiscoveredEndpoint {
  method: 'POST' | 'PUT' | 'PATCH';
  /** Route pattern with Astro's [param] segments, e.g. /api/clients/[id]. */
  route: string;
  file: string;
}

const API_DIR = path.join(ROOT, 'src/pages/api');

/**
 * Every POST/PUT/PATCH under src/pages/api whose handler reads the request body (readJson, or
 * passes ctx.request on to a service that does). Handlers that ignore the body (logout,
 * assign-by-URL) are left out: there is no body to fuzz.
 */
export function discoverBodyEndpoints(): DiscoveredEndpoint[] {
  const found: DiscoveredEndpoint[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|js)$/.test(entry.name) && !entry.name.startsWith('[...')) {
        const source = fs.readFileSync(full, 'utf8');
        if (!/readJson\(|\(ctx\.request\b|ctx\.request\)/.test(source)) continue;
        let route = '/api/' + path.relative(API_DIR, full).replace(/\\/g, '/').replace(/\.(ts|js)$/, '');
        route = route.replace(/\/index$/, '');
        for (const m of source.matchAll(/export const (POST|PUT|PATCH)\b/g)) {
          found.push({ method: m[1] as DiscoveredEndpoint['method'], route, file: path.relative(ROOT, full) });
        }
      }
    }
  };
  walk(API_DIR);
  return found.sort((a, b) => `${a.route} ${a.method}`.localeCompare(`${b.route} ${b.method}`));
}

export interface HostileBody {
  name: string;
  body: string | Uint8Array;
  contentType: string | null;
}

const json = (name: string, value: unknown): HostileBody => ({ name, body: JSON.stringify(value), contentType: 'application/json' });
const raw = (name: string, body: string | Uint8Array, contentType: string | null = 'application/json'): HostileBody => ({ name, body, contentType });

export const MB = 1024 * 1024;

/** Strings that break naive SQL, HTML, path, header or format handling. */
export const HOSTILE_STRINGS: string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; DELETE FROM media WHERE 1=1',
  "') UNION SELECT password_hash, username FROM users --",
  '%; --',
  '\\',
  '</script><script>window.__xss=1</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("return process")()}}',
  '${process.exit(1)}',
  '../../../../etc/passwd',
  'a\r\nSet-Cookie: injected=1',
  '\u0000',
  '\ud800',
  '\u202e\u0644\u200b',
  '%s%s%s%n',
  'x'.repeat(100_000),
];

/**
 * Characters no text field may hold (issue 31, item 9), each inside otherwise ordinary text:
 * C0 and C1 controls, DEL, and the bidi controls that make text show in another order.
 */
export const FORBIDDEN_IN_TEXT: [string, string][] = [
  ['NUL', 'Eve\u0000'],
  ['ESC (a terminal colour code)', '\u001b[31mEve'],
  ['backspace', 'Ev\u0008e'],
  ['DEL', 'Eve\u007f'],
  ['C1 next line', 'Eve\u0085Bcc: x@example.test'],
  ['C1 CSI', 'Eve\u009b31m'],
  ['right-to-left override', 'Eve\u202egnp.exe'],
  ['left-to-right embedding', '\u202aEve'],
  ['pop directional formatting', 'Eve\u202c'],
  ['first strong isolate', 'Eve\u2068x\u2069'],
  ['right-to-left mark', 'Eve\u200f'],
  ['Arabic letter mark', 'Eve\u061c'],
];

/** Line breaks and tabs inside the text: refused in one-line fields only. */
export const FORBIDDEN_IN_ONE_LINE: [string, string][] = [
  ['LF', 'Eve\nBcc: x@example.test'],
  ['CR LF', 'Eve\r\nBcc: x@example.test'],
  ['CR', 'Eve\rx'],
  ['line separator', 'Eve\u2028x'],
  ['paragraph separator', 'Eve\u2029x'],
  ['tab', 'Eve\tx'],
];

/**
 * Bodies no object schema can accept, whatever the endpoint: not JSON, not an object, the
 * wrong content type, or over the 256 KB cap. `sample` is a well-formed body for the endpoint
 * (sent with the wrong content types).
 */
export function genericHostileBodies(sample: Record<string, unknown> = {}): HostileBody[] {
  const sampleText = JSON.stringify(sample);
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  return [
    // Not JSON at all (sent as application/json).
    raw('lone brace', '{'),
    raw('closing brace', '}'),
    raw('truncated object', '{"a":'),
    raw('single quotes', "{'a': 1}"),
    raw('bare keys', '{a:1}'),
    raw('undefined', 'undefined'),
    raw('NaN', 'NaN'),
    raw('truncated array', '[1,2,'),
    raw('trailing comma', '{"a":1,}'),
    raw('html', '<script>alert(1)</script>'),
    raw('sql', "' OR 1=1 --"),
    raw('nul byte', '\u0000'),
    raw('two documents', '{"a":1}{"b":2}'),
    raw('null twice', 'null null'),
    raw('comment', '/* x */ {}'),
    raw('garbage after object', '{"a":1}\n\u0000garbage'),
    raw('xml', '<?xml version="1.0"?><a>1</a>'),
    raw('form encoded as json', 'a=1&b=2'),
    raw('hex number', '0x10'),
    raw('double minus', '--1'),
    raw('invalid utf-8', new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7b])),
    raw('truncated __proto__', '{"__proto__":'),
    // JSON, but not an object.
    raw('null', 'null'),
    raw('true', 'true'),
    raw('false', 'false'),
    raw('zero', '0'),
    raw('negative', '-1'),
    raw('huge number', '1e308'),
    raw('overflowing number', '1e999999'),
    json('string', 'string'),
    json('empty string', ''),
    json('sql string', "' OR '1'='1"),
    json('empty array', []),
    json('array of object', [sample]),
    json('array of null', [null]),
    json('nested arrays', [[[]]]),
    json('array of html', ['<script>alert(1)</script>']),
    raw('BOM then array', '\uFEFF[]'),
    raw('lone surrogate in array', '["\\ud800"]'),
    raw('deep arrays 10k', deep(10_000)),
    raw('deep arrays 100k', deep(100_000)),
    json('20k empty objects', Array.from({ length: 20_000 }, () => ({}))),
    json('200 KB string', 'a'.repeat(200_000)),
    // Over the 256 KB JSON cap: 413.
    json('1 MB string field', { ...sample, x: 'a'.repeat(MB) }),
    json('300 KB array', Array.from({ length: 30_000 }, () => 'abcdefgh')),
    raw('1 MB of brackets', '['.repeat(MB)),
    raw('1 MB garbage', 'z'.repeat(MB)),
    // The wrong content type, with a well-formed body.
    raw('text/plain', sampleText, 'text/plain'),
    raw('form urlencoded', sampleText, 'application/x-www-form-urlencoded'),
    raw('multipart without boundary', sampleText, 'multipart/form-data'),
    raw('application/xml', sampleText, 'application/xml'),
    raw('text/html', sampleText, 'text/html'),
    raw('no content type', sampleText, null),
    raw('utf-16 body', new Uint8Array(Buffer.from('[]', 'utf16le')), 'application/json; charset=utf-16'),
  ];
}

/** Values of the wrong type for a field whose valid value is `v` (null only when not nullable). */
function wrongTypes(v: unknown, nullable: boolean): unknown[] {
  const common: unknown[] = [{}, [], { $gt: '' }, nullable ? undefined : null].filter((x) => x !== undefined);
  if (typeof v === 'string') return [...common, 12345, true, ['x'], 1e308];
  if (typeof v === 'number') return [...common, String(v), `${v} OR 1=1`, true, 'NaN', [v]];
  if (typeof v === 'boolean') return [...common, 'true', 1, 'yes', [v]];
  if (Array.isArray(v)) {
    const wrongItems = typeof v[0] === 'number' ? ['1', '2'] : [1, 2];
    return [...common.filter((x) => !Array.isArray(x)), 'a,b', 42, true, wrongItems, [{}]];
  }
  return [...common, 'text', 42];
}

export interface FieldFixture {
  /** A body the endpoint accepts. */
  valid: Record<string, unknown>;
  /** Fields that may be left out (removing them is not a mutation that must fail). */
  optional?: string[];
  /** Fields where null is a valid value. */
  nullable?: string[];
  /** Merged in to make an otherwise acceptable body invalid (one field of the wrong type). */
  breaker: Record<string, unknown>;
}

/**
 * Field-level hostile bodies for an endpoint with a known valid body: each field missing or
 * of the wrong type; every hostile string (SQL, HTML, traversal, control characters, 100 KB)
 * in every string field; prototype-pollution keys and unknown fields. The last three are
 * combined with `breaker` so the body as a whole is invalid: the server must refuse all.
 */
export function fieldHostileBodies(f: FieldFixture): HostileBody[] {
  const out: HostileBody[] = [];
  const optional = new Set(f.optional ?? []);
  const nullable = new Set(f.nullable ?? []);
  const broken = (extra: Record<string, unknown>) => ({ ...f.valid, ...extra, ...f.breaker });
  for (const [key, value] of Object.entries(f.valid)) {
    if (!optional.has(key)) {
      const { [key]: _gone, ...rest } = f.valid;
      out.push(json(`without ${key}`, rest));
    }
    for (const bad of wrongTypes(value, nullable.has(key))) out.push(json(`${key} = ${JSON.stringify(bad).slice(0, 40)}`, { ...f.valid, [key]: bad }));
  }
  const stringFields = Object.entries(f.valid).filter(([k, v]) => typeof v === 'string' && !(k in f.breaker)).map(([k]) => k);
  for (const key of stringFields) {
    for (const s of HOSTILE_STRINGS) out.push(json(`${key} = ${JSON.stringify(s.slice(0, 30))} (+breaker)`, broken({ [key]: s })));
  }
  const b = JSON.stringify(broken({})).slice(1, -1);
  out.push(raw('__proto__ key (+breaker)', `{"__proto__":{"isAdmin":true,"isActive":true,"permissions":["edit:users"]},${b}}`));
  out.push(raw('constructor.prototype (+breaker)', `{"constructor":{"prototype":{"isAdmin":true}},${b}}`));
  // Alone it is an empty object: invalid only when some field is required.
  const allOptional = Object.keys(f.valid).every((k) => optional.has(k));
  if (allOptional) out.push(raw('__proto__ with breaker only', `{"__proto__":{"polluted":"yes"},${JSON.stringify(f.breaker).slice(1, -1)}}`));
  else out.push(raw('__proto__ as only key', '{"__proto__":{"polluted":"yes"}}'));
  out.push(raw('prototype key (+breaker)', `{"prototype":{"polluted":1},"__proto__":null,${b}}`));
  out.push(json('unknown fields (+breaker)', broken({ id: 1, role: 'Admin', isAdmin: true, passwordHash: 'x', $where: '1' })));
  out.push(json('nested object 1k deep (+breaker)', broken({ nested: JSON.parse('{"a":'.repeat(1000) + '1' + '}'.repeat(1000)) })));
  const [firstKey] = Object.keys(f.breaker);
  if (firstKey) out.push(raw('duplicate key, last one wrong', `{${JSON.stringify(f.valid).slice(1, -1)},${JSON.stringify(firstKey)}:${JSON.stringify(f.breaker[firstKey])}}`));
  return out;
}

/**
 * A fingerprint of every table: row count and a hash of all rows in rowid order. Equal
 * fingerprints mean nothing was written.
 */
export async function dbFingerprint(sql: Client, skip: string[] = []): Promise<Record<string, string>> {
  await jobsSettled(sql);
  await outboxSettled(sql);
  const tables = await sql.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const table = String(name);
    if (skip.includes(table)) continue;
    const rows = await sql.execute(`SELECT * FROM "${table.replace(/"/g, '""')}"`);
    const hash = createHash('sha256');
    for (const row of rows.rows) hash.update(JSON.stringify(Object.values(row), (_k, v) => (typeof v === 'bigint' ? String(v) : v instanceof ArrayBuffer ? Buffer.from(v).toString('hex') : v)));
    out[table] = `${rows.rows.length}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Uint8Array };

const BOUNDARY = 'studio-fuzz-boundary-7d1f0c';

/**
 * Waits until the background worker has nothing queued or running, so a job the fixtures queued
 * (a share link's previews, say) cannot change the jobs table between two fingerprints. A job a
 * hostile body queued still shows: it adds a row.
 */
async function jobsSettled(sql: Client, timeoutMs = 180_000): Promise<void> {
  // A database of a schema state from before the job queue (an upgrade fixture) has none to wait for.
  if (!(await sql.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'")).rows.length) return;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql.execute("SELECT id, kind, status FROM jobs WHERE status IN ('queued', 'running')");
    if (!r.rows.length) return;
    if (Date.now() > until) throw new Error(`jobs still waiting after ${timeoutMs} ms: ${JSON.stringify(r.rows)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * Waits until the notification sender has taken every message that is due (a valid body's
 * notification, say, is written out a poll later), so its status change cannot fall between two
 * fingerprints. A message a hostile body queued still shows: it adds a row.
 */
async function outboxSettled(sql: Client, timeoutMs = 60_000): Promise<void> {
  if (!(await sql.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notification_outbox'")).rows.length) return;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql.execute({
      sql: "SELECT id, status FROM notification_outbox WHERE (status = 'pending' AND next_attempt_at <= ?) OR status = 'sending'",
      args: [Date.now()],
    });
    if (!r.rows.length) return;
    if (Date.now() > until) throw new Error(`notifications still due after ${timeoutMs} ms: ${JSON.stringify(r.rows)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** A multipart/form-data body built by hand, so it can also be built wrong. */
export function multipartBody(parts: Part[], opts: { boundary?: string; close?: boolean } = {}): Uint8Array {
  const boundary = opts.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'value' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`;
    chunks.push(Buffer.from(head), Buffer.from('value' in p ? p.value : p.data), Buffer.from('\r\n'));
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

export interface MultipartFixture {
  /** Text fields of a form the endpoint accepts (with `file`). */
  fields: Record<string, string>;
  /** Fields that may be left out. */
  optional?: string[];
  /** Values each field must refuse. */
  wrong: Record<string, string[]>;
  /** Merged in to make an otherwise acceptable form invalid. */
  breaker: Record<string, string>;
  /** A file the endpoint accepts, in its file field. */
  file: { field: string; name: string; type: string; data: Uint8Array };
}

const filePart = (f: MultipartFixture): Part => ({ name: f.file.field, filename: f.file.name, type: f.file.type, data: f.file.data });

/** The valid multipart form of a fixture. */
export function validMultipart(f: MultipartFixture): HostileBody {
  const fields = Object.entries(f.fields).map(([name, value]) => ({ name, value }));
  return { name: 'valid form', body: multipartBody([...fields, filePart(f)]), contentType: MULTIPART_TYPE };
}

/**
 * Well-formed and malformed multipart forms for an upload endpoint: they get past the content
 * type, so each is refused by the form's own checks (fields, file type, structure, limits).
 */
export function multipartHostileBodies(f: MultipartFixture): HostileBody[] {
  const out: HostileBody[] = [];
  const file = filePart(f) as Extract<Part, { filename: string }>;
  const fieldsOf = (over: Record<string, string>, without?: string) =>
    Object.entries({ ...f.fields, ...over })
      .filter(([k]) => k !== without)
      .map(([name, value]) => ({ name, value }));
  const form = (name: string, parts: Part[], opts?: { boundary?: string; close?: boolean }, contentType = MULTIPART_TYPE) =>
    out.push({ name, body: multipartBody(parts, opts), contentType });
  const broken = (over: Record<string, string>) => fieldsOf({ ...over, ...f.breaker });

  form('no file', fieldsOf({}));
  form('file under another name', [...fieldsOf({}), { ...file, name: 'upload' }]);
  for (const key of Object.keys(f.fields)) if (!(f.optional ?? []).includes(key)) form(`without ${key}`, [...fieldsOf({}, key), file]);
  for (const [key, values] of Object.entries(f.wrong)) for (const v of values) form(`${key} = ${JSON.stringify(v).slice(0, 40)}`, [...fieldsOf({ [key]: v }), file]);
  for (const key of Object.keys(f.fields)) {
    if (key in f.breaker) continue;
    for (const s of HOSTILE_STRINGS) form(`${key} = ${JSON.stringify(s.slice(0, 30))} (+breaker)`, [...broken({ [key]: s }), file]);
  }
  for (const name of ['../../../../etc/passwd.jpg', '<script>alert(1)</script>.jpg', 'a\r\nX-Injected: 1.jpg', '\u0000.jpg', 'x'.repeat(5000) + '.jpg']) {
    form(`file name ${JSON.stringify(name.slice(0, 30))} (+breaker)`, [...broken({}), { ...file, filename: name }]);
  }
  form('__proto__ field (+breaker)', [{ name: '__proto__', value: '{"isAdmin":true}' }, { name: 'constructor', value: 'x' }, ...broken({}), file]);
  form('unknown fields (+breaker)', [{ name: 'id', value: '1' }, { name: 'uploadedBy', value: 'someone' }, ...broken({}), file]);
  // Files that are not what they claim.
  form('text claiming to be a JPEG', [...fieldsOf({}), { ...file, data: new Uint8Array(Buffer.from('just some text, not an image')) }]);
  form('HTML claiming to be a JPEG', [...fieldsOf({}), { ...file, data: new Uint8Array(Buffer.from('<html><script>alert(1)</script></html>')) }]);
  form('SVG with a script', [...fieldsOf({}), { ...file, filename: 'x.svg', type: 'image/svg+xml', data: new Uint8Array(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')) }]);
  form('empty file', [...fieldsOf({}), { ...file, data: new Uint8Array(0) }]);
  form('truncated image', [...fieldsOf({}), { ...file, data: f.file.data.slice(0, 64) }]);
  form('a poster that is not an image', [...fieldsOf({}), file, { name: 'posterFile', filename: 'p.jpg', type: 'image/jpeg', data: new Uint8Array(Buffer.from('not an image')) }]);
  // Broken structure.
  form('no closing boundary', [...fieldsOf({}), file], { close: false });
  form('body boundary differs from the header', [...fieldsOf({}), file], { boundary: 'some-other-boundary' });
  form('empty body', []);
  out.push({ name: 'garbage between boundaries', body: new Uint8Array(Buffer.from(`--${BOUNDARY}\r\ngarbage without headers\r\n--${BOUNDARY}--\r\n`)), contentType: MULTIPART_TYPE });
  out.push({ name: 'boundary only in the header', body: new Uint8Array(Buffer.from('no multipart here at all')), contentType: MULTIPART_TYPE });
  form('1 MB text field (+file)', [...fieldsOf({ title: 'x'.repeat(MB) }), file]);
  form('2,000 fields', [...fieldsOf({}), ...Array.from({ length: 2000 }, (_, i) => ({ name: `f${i}`, value: 'x' })), file]);
  return out;
}

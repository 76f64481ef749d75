// The committed upgrade fixtures (tests/fixtures/upgrade, made by scripts/upgrade-fixtures.mjs):
// one library per earlier schema state, unpacked into a data folder a server can start on.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Client, Row } from '@libsql/client';
import { ROOT } from './server.ts';

export const FIXTURES = path.join(ROOT, 'tests/fixtures/upgrade');

export interface Fixture {
  tag: string;
  migrations: number;
  staff: { username: string; password: string }[];
  client: { username: string; password: string };
  video: { id: number; key: string };
  image: { id: number; key: string };
  /** `storageKey/variant` → sha256 of the file. */
  media: Record<string, string>;
}

/** The states with a fixture, oldest first. */
export function fixtureTags(): string[] {
  return fs
    .readdirSync(FIXTURES)
    .filter((name) => fs.existsSync(path.join(FIXTURES, name, 'fixture.json')))
    .sort();
}

export function readFixture(tag: string): Fixture {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, tag, 'fixture.json'), 'utf8'));
}

/** The fixture's database (as `studio.db`) and media folder, copied into `dir`. */
export function unpackFixture(tag: string, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'studio.db'), zlib.gunzipSync(fs.readFileSync(path.join(FIXTURES, tag, 'studio.db.gz'))));
  fs.cpSync(path.join(FIXTURES, tag, 'media'), path.join(dir, 'media'), { recursive: true });
}

const plain = (v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof ArrayBuffer ? Buffer.from(v).toString('hex') : v);

/** Every row of every table, by table and primary key (rowid where there is none). */
export async function allRows(sql: Client): Promise<Map<string, Map<string, Record<string, unknown>>>> {
  const out = new Map<string, Map<string, Record<string, unknown>>>();
  const tables = await sql.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  // A full-text index (search, issue 54) is its content table's rows again, in its own layout.
  const virtual = tables.rows.filter((t) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(String(t.sql))).map((t) => String(t.name));
  for (const { name } of tables.rows) {
    const table = String(name);
    if (virtual.some((v) => table === v || table.startsWith(`${v}_`))) continue;
    const keys = (await sql.execute(`PRAGMA table_info("${table}")`)).rows
      .filter((c) => Number(c.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((c) => String(c.name));
    const byKey = new Map<string, Record<string, unknown>>();
    for (const row of (await sql.execute(`SELECT rowid AS __rowid, * FROM "${table}"`)).rows as Row[]) {
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) values[k] = plain(v);
      // drizzle's own table declares `id SERIAL`, which SQLite leaves NULL: its rowid names the row.
      const key = keys.length && keys.every((k) => values[k] !== null) ? keys : ['__rowid'];
      byKey.set(JSON.stringify(key.map((k) => values[k])), values);
    }
    out.set(table, byKey);
  }
  return out;
}

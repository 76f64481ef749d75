// Copies a whole database from one libSQL client to another over plain SQL, so it works the
// same on an embedded file and on a libSQL server (sqld), where there is no file to copy and
// no VACUUM INTO to run (issue 44). Used three ways: a backup of a server database (server →
// a new SQLite file in the snapshot), a restore into an empty server (that file → server), and
// moving a file database onto a server (`npm run db:copy`).
//
// The source is read in one read transaction: one consistent snapshot while writers carry on.
// The target is written in one write transaction with foreign keys checked at commit (tables
// are filled in any order), so it ends complete or unchanged. Indexes and triggers are made
// after the rows, so no trigger fires on copied rows (they already hold what the triggers
// wrote). Each table's row count is checked on the target after the commit.
//
// A full-text index (FTS5, the search of issue 54) is a virtual table with shadow tables of its
// own: it is made afresh on the target after the rows and rebuilt from its content table, never
// copied page by page (its shadow tables hold the index's own layout).
import type { Client, InValue, Transaction } from '@libsql/client';

export interface TableCount {
  table: string;
  rows: number;
}

export class DatabaseCopyError extends Error {}

/** Rows per statement, at most; fewer when they hold more than PAGE_BYTES. */
const PAGE = 200;
/** Bytes of values per page: JSON-encoded (blobs in base64) they stay under sqld's 10 MB answer limit. */
const PAGE_BYTES = 3 * 1024 * 1024;
interface SchemaEntry {
  type: string;
  name: string;
  sql: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The user schema, tables first (in creation order), then indexes, triggers and views. */
async function readSchema(tx: Transaction): Promise<SchemaEntry[]> {
  const rows = await tx.execute(
    `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
     ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid`,
  );
  return rows.rows.map((r) => ({ type: String(r.type), name: String(r.name), sql: String(r.sql) }));
}

/** A virtual table's own storage: `<name>_data`, `_idx`, `_docsize`, `_config`, `_content` for FTS5. */
const SHADOW_SUFFIXES = ['_data', '_idx', '_docsize', '_config', '_content'];

/** The virtual tables among `schema`, and the shadow tables they keep. */
function virtualTables(schema: SchemaEntry[]): { virtual: Set<string>; shadow: Set<string> } {
  const virtual = new Set(schema.filter((s) => s.type === 'table' && /^CREATE\s+VIRTUAL\s+TABLE/i.test(s.sql)).map((s) => s.name));
  const shadow = new Set(schema.filter((s) => s.type === 'table' && [...virtual].some((v) => SHADOW_SUFFIXES.some((x) => s.name === v + x))).map((s) => s.name));
  return { virtual, shadow };
}

/** Names of the user tables of a database (empty for a new one). */
export async function userTables(client: Client): Promise<string[]> {
  const r = await client.execute(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`);
  return r.rows.map((row) => String(row.name));
}

/** Every user table's row count, by name. */
export async function countRows(client: Client | Transaction): Promise<TableCount[]> {
  const tables = (await client.execute(`SELECT type, name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)).rows.map((r) => ({ type: String(r.type), name: String(r.name), sql: String(r.sql) }));
  // Full-text indexes are rebuilt, not copied: their rows are their content table's.
  const { virtual, shadow } = virtualTables(tables);
  const names = tables.map((t) => t.name).filter((n) => !virtual.has(n) && !shadow.has(n));
  const out: TableCount[] = [];
  for (const table of names) {
    const r = await client.execute(`SELECT count(*) AS n FROM ${quote(table)}`);
    out.push({ table, rows: Number(r.rows[0]!.n) });
  }
  return out;
}

/**
 * Copies every table, index, trigger and row of `from` into `to`, which must hold no table.
 * `from` and `to` should be opened with intMode 'bigint' so no integer loses precision.
 * Answers the row count of each table, checked equal on both sides.
 */
export async function copyDatabase(from: Client, to: Client): Promise<TableCount[]> {
  const existing = await userTables(to);
  if (existing.length) throw new DatabaseCopyError(`The target database is not empty (it has ${existing.length} tables, e.g. ${existing[0]}); nothing was copied.`);
  const src = await from.transaction('read');
  let counts: TableCount[];
  try {
    const schema = await readSchema(src);
    counts = await countRows(src);
    const dst = await to.transaction('write');
    try {
      await dst.execute('PRAGMA defer_foreign_keys = ON');
      // Every table before any row: a row's foreign key needs its parent table to exist.
      const { virtual, shadow } = virtualTables(schema);
      const tables = schema.filter((s) => s.type === 'table' && !virtual.has(s.name) && !shadow.has(s.name));
      for (const t of tables) await dst.execute(t.sql);
      for (const t of tables) await copyRows(src, dst, t.name);
      // Full-text indexes: made (with their shadow tables) and filled from their content table.
      for (const v of schema.filter((s) => virtual.has(s.name))) {
        await dst.execute(v.sql);
        await dst.execute(`INSERT INTO ${quote(v.name)} (${quote(v.name)}) VALUES ('rebuild')`);
      }
      // There is a sqlite_sequence table only when some table uses AUTOINCREMENT.
      const hasSeq = (await src.execute(`SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'`)).rows.length > 0;
      const seq = hasSeq ? await src.execute('SELECT name, seq FROM sqlite_sequence') : null;
      if (seq?.rows.length) {
        // AUTOINCREMENT never reuses an id, even of a deleted row: carry the high-water marks over.
        await dst.execute('DELETE FROM sqlite_sequence');
        for (const r of seq.rows) await dst.execute({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', args: [r.name, r.seq] });
      }
      for (const s of schema.filter((e) => e.type !== 'table')) await dst.execute(s.sql);
      await dst.commit();
    } catch (e) {
      await dst.rollback().catch(() => {});
      throw e;
    } finally {
      dst.close();
    }
  } finally {
    await src.rollback().catch(() => {});
    src.close();
  }
  const after = new Map((await countRows(to)).map((c) => [c.table, c.rows]));
  const wrong = counts.filter((c) => after.get(c.table) !== c.rows).map((c) => `${c.table}: ${c.rows} read, ${after.get(c.table) ?? 'none'} written`);
  if (wrong.length) throw new DatabaseCopyError(`The copy's row counts differ:\n  ${wrong.join('\n  ')}`);
  return counts;
}

async function copyRows(src: Transaction, dst: Transaction, table: string): Promise<void> {
  const columns = (await src.execute({ sql: 'SELECT name FROM pragma_table_info(?)', args: [table] })).rows.map((r) => String(r.name));
  const list = columns.map(quote).join(', ');
  const row = `(${columns.map(() => '?').join(', ')})`;
  const bytes = columns.map((c) => `coalesce(length(CAST(${quote(c)} AS BLOB)), 0)`).join(' + ');
  // Paged by rowid (every table here has one), under the read transaction's snapshot. The
  // rows' sizes are read first, so a page of large rows never answers over sqld's limit (an
  // answer that is refused ends the whole stream, and the snapshot with it).
  let after: InValue = null;
  const from = (upTo?: InValue) => {
    const where = [after === null ? null : 'rowid > ?', upTo === undefined ? null : 'rowid <= ?'].filter(Boolean);
    return { sql: `FROM ${quote(table)} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY rowid`, args: [after, upTo].filter((a) => a !== null && a !== undefined) as InValue[] };
  };
  for (;;) {
    const head = from();
    const sizes = (await src.execute({ sql: `SELECT rowid AS r, ${bytes} AS b ${head.sql} LIMIT ${PAGE}`, args: head.args })).rows;
    if (!sizes.length) return;
    let take = 0;
    for (let total = 0; take < sizes.length && (take === 0 || total + Number(sizes[take]!.b) <= PAGE_BYTES); take++) total += Number(sizes[take]!.b);
    const last = sizes[take - 1]!.r as InValue;
    const part = from(last);
    const rows = (await src.execute({ sql: `SELECT ${list} ${part.sql}`, args: part.args })).rows;
    const args: InValue[] = [];
    for (const r of rows) for (const c of columns) args.push(r[c] as InValue);
    await dst.execute({ sql: `INSERT INTO ${quote(table)} (${list}) VALUES ${rows.map(() => row).join(', ')}`, args });
    after = last;
  }
}

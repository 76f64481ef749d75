// A version stamp for everything the public pages show. Every write that changes what a
// public page renders (media flags, media deletion, settings, branding, SEO, contact info)
// calls bumpSiteVersion(); page caches in every process compare against it.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { eq, sql } from 'drizzle-orm';
import { config } from './config.ts';
import { db } from '../db/index.ts';
import { siteState } from '../db/schema.ts';

type Executor = Pick<typeof db, 'update' | 'select'>;

export async function bumpSiteVersion(tx: Executor = db): Promise<void> {
  await tx.update(siteState).set({ version: sql`${siteState.version} + 1` }).where(eq(siteState.id, 1));
}

// Read on every cached page view, so it must cost microseconds, not the ~0.3 ms of a query
// through drizzle and the serialised libSQL connection (bench/ssr.mjs measured the page cache
// at a fifth of a bare server's speed with that). For an embedded file a read-only
// node:sqlite connection with one prepared statement does it: every read is its own
// transaction, so it sees each commit by any process at once. Remote databases, or any error,
// take the ordinary query.
const versionQuery = db.select({ version: siteState.version }).from(siteState).where(eq(siteState.id, 1)).limit(1).prepare();

type Reader = { get: () => { version?: unknown } | undefined };
let reader: Reader | null | undefined;

function localReader(): Reader | null {
  if (reader !== undefined) return reader;
  reader = null;
  const url = config.DATABASE_URL;
  if (!url.startsWith('file:')) return reader;
  try {
    const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    const conn = new DatabaseSync(path.resolve(file), { readOnly: true, timeout: 5000 });
    reader = conn.prepare('SELECT version FROM site_state WHERE id = 1') as unknown as Reader;
  } catch {
    reader = null;
  }
  return reader;
}

export async function currentSiteVersion(): Promise<number> {
  const r = localReader();
  if (r) {
    try {
      return Number(r.get()?.version ?? 0);
    } catch {
      /* fall through to the ordinary query */
    }
  }
  const [row] = await versionQuery.all();
  return row?.version ?? 0;
}

// The admin media list, serialised once per library version. SQLite triggers (migration
// 0002) bump library_state.version on any write to media, links, feedback, notes or clients,
// so a cached body is exact in every process. With 10,000 items SQLite writing the 6 MB of JSON
// costs ~0.1 s and gzipping it another ~60 ms (bench/admin-lists.mjs times this cold path), so
// both are done once per version, not per request.
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { libraryState } from '../../db/schema.ts';
import { listAdminMediaJson } from './admin-queries.ts';

const versionQuery = db.select({ version: libraryState.version }).from(libraryState).where(eq(libraryState.id, 1)).limit(1).prepare();

export interface CachedList {
  version: number;
  body: Uint8Array;
  /** gzip of `body`, made on first demand. */
  gzipped: () => Uint8Array;
}

let cached: CachedList | null = null;
let building: Promise<CachedList> | null = null;

async function libraryVersion(): Promise<number> {
  const [row] = await versionQuery.all();
  return row?.version ?? 0;
}

function entry(version: number, json: string): CachedList {
  const body = Buffer.from(json);
  let gz: Uint8Array | undefined;
  return { version, body, gzipped: () => (gz ??= gzipSync(body, { level: 6 })) };
}

/** The JSON of GET /api/media for the current library version. */
export async function adminMediaList(): Promise<CachedList> {
  const version = await libraryVersion();
  if (cached?.version === version) return cached;
  // Concurrent misses share one build. The version is read before building, so a write that
  // lands meanwhile only makes the next request rebuild.
  building ??= (async () => {
    try {
      cached = entry(version, await listAdminMediaJson());
      return cached;
    } finally {
      building = null;
    }
  })();
  const built = await building;
  return built.version === version ? built : adminMediaList();
}

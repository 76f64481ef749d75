// The admin media list, serialised once per library version. SQLite triggers (migration
// 0002) bump library_state.version on any write to media, links, feedback, notes or clients,
// so a cached body is exact in every process; with 10,000 items building it costs ~0.5 s.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { libraryState } from '../../db/schema.ts';
import { listAdminMedia } from './admin-queries.ts';

const versionQuery = db.select({ version: libraryState.version }).from(libraryState).where(eq(libraryState.id, 1)).limit(1).prepare();

let cached: { version: number; body: string } | null = null;
let building: Promise<{ version: number; body: string }> | null = null;

async function libraryVersion(): Promise<number> {
  const [row] = await versionQuery.all();
  return row?.version ?? 0;
}

/** The JSON text of GET /api/media and its version (for the ETag). */
export async function adminMediaListJson(): Promise<{ version: number; body: string }> {
  const version = await libraryVersion();
  if (cached?.version === version) return cached;
  // Concurrent misses share one build. The version is read before building, so a write that
  // lands meanwhile only makes the next request rebuild.
  building ??= (async () => {
    try {
      const body = JSON.stringify(await listAdminMedia());
      cached = { version, body };
      return cached;
    } finally {
      building = null;
    }
  })();
  const built = await building;
  return built.version === version ? built : adminMediaListJson();
}

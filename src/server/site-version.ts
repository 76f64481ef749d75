// A version stamp for everything the public pages show. Every write that changes what a
// public page renders (media flags, media deletion, settings, branding, SEO, contact info)
// calls bumpSiteVersion(); page caches in every process compare against it.
import { eq, sql } from 'drizzle-orm';
import { db } from '../db/index.ts';
import { siteState } from '../db/schema.ts';

type Executor = Pick<typeof db, 'update' | 'select'>;

export async function bumpSiteVersion(tx: Executor = db): Promise<void> {
  await tx.update(siteState).set({ version: sql`${siteState.version} + 1` }).where(eq(siteState.id, 1));
}

export async function currentSiteVersion(): Promise<number> {
  const [row] = await db.select({ version: siteState.version }).from(siteState).where(eq(siteState.id, 1)).limit(1);
  return row?.version ?? 0;
}

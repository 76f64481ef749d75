// Watch-page addresses (/portfolio/{slug}, issue 21): made from the title, unique among every
// item's current and former slugs. A title change gives a new slug and keeps the old one in
// media_slug_history, where it answers 301; a slug in the history never goes to another item,
// so a link once published cannot start showing a different film.
// Takes its database handle as a parameter: the start script (bootstrap.ts) runs ensureSlugs
// under Node's type stripping on its own connection.
import { and, eq, isNull, like, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { media, mediaSlugHistory } from '../../db/schema.ts';

type Executor = Pick<Database, 'select' | 'update' | 'insert' | 'delete'>;

const MAX_LENGTH = 80;

/** "Émilie & Tom's Wedding!" -> "emilie-and-toms-wedding". Never empty. */
export function slugify(title: string, fallback = 'film'): string {
  let s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length > MAX_LENGTH) s = s.slice(0, MAX_LENGTH).replace(/-[^-]*$/, '') || s.slice(0, MAX_LENGTH);
  return s || fallback;
}

/** Whether `slug` is `base` or `base-N`: the slug the title would give, so a rename keeps it. */
function fitsBase(slug: string, base: string): boolean {
  return slug === base || (slug.startsWith(`${base}-`) && /^\d+$/.test(slug.slice(base.length + 1)));
}

/** Slugs already taken by other items (current or former) that could clash with `base`. */
async function takenNear(tx: Executor, base: string, ownId: number): Promise<Set<string>> {
  const pattern = `${base.replace(/[%_\\]/g, '\\$&')}-%`;
  const current = await tx
    .select({ slug: media.slug, id: media.id })
    .from(media)
    .where(or(eq(media.slug, base), sql`${media.slug} like ${pattern} escape '\\'`));
  const former = await tx
    .select({ slug: mediaSlugHistory.slug, id: mediaSlugHistory.mediaId })
    .from(mediaSlugHistory)
    .where(or(eq(mediaSlugHistory.slug, base), like(mediaSlugHistory.slug, pattern)));
  return new Set([...current, ...former].filter((r) => r.id !== ownId && r.slug).map((r) => r.slug!));
}

function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const fallbackFor = (type: 'image' | 'video') => (type === 'image' ? 'image' : 'film');

/**
 * Gives an item the slug its (new) title asks for, inside the caller's transaction. The
 * current slug stays when it already fits the title; otherwise it moves to the history.
 */
export async function applyTitleSlug(tx: Executor, row: { id: number; title: string; type: 'image' | 'video'; slug: string | null }): Promise<string> {
  const base = slugify(row.title, fallbackFor(row.type));
  if (row.slug && fitsBase(row.slug, base)) return row.slug;
  const next = firstFree(base, await takenNear(tx, base, row.id));
  // Renaming back to an earlier title takes the old slug out of the history again.
  await tx.delete(mediaSlugHistory).where(and(eq(mediaSlugHistory.slug, next), eq(mediaSlugHistory.mediaId, row.id)));
  await tx.update(media).set({ slug: next }).where(eq(media.id, row.id));
  if (row.slug && row.slug !== next) await tx.insert(mediaSlugHistory).values({ slug: row.slug, mediaId: row.id }).onConflictDoNothing();
  return next;
}

/** Rows written per UPDATE when filling in slugs (two parameters each). */
const SLUG_BATCH = 500;

let filling: Promise<number> | null = null;

/**
 * Fills in slugs for rows that have none: rows from before migration 0008 and rows written
 * outside the app. Cheap when there is nothing to do (a partial index finds the empty ones);
 * otherwise one transaction for all, written a batch of rows per statement: on a libSQL server
 * each statement is a round trip, and one per row kept 10,000 items' public reads waiting
 * (issue 44). Public reads arriving meanwhile in this process wait for the same fill. A clash
 * with another process doing the same rolls back and is tried once more.
 */
export function ensureSlugs(db: Database): Promise<number> {
  return (filling ??= fillSlugs(db).finally(() => (filling = null)));
}

async function fillSlugs(db: Database, attempt = 0): Promise<number> {
  const missing = await db.select({ id: media.id }).from(media).where(isNull(media.slug)).limit(1);
  if (!missing.length) return 0;
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx.select({ id: media.id, title: media.title, type: media.type }).from(media).where(isNull(media.slug)).orderBy(media.id);
      const taken = new Set<string>();
      for (const r of await tx.select({ slug: media.slug }).from(media)) if (r.slug) taken.add(r.slug);
      for (const r of await tx.select({ slug: mediaSlugHistory.slug }).from(mediaSlugHistory)) taken.add(r.slug);
      const given = rows.map((r) => {
        const slug = firstFree(slugify(r.title, fallbackFor(r.type)), taken);
        taken.add(slug);
        return sql`(${r.id}, ${slug})`;
      });
      for (let i = 0; i < given.length; i += SLUG_BATCH) {
        await tx.run(sql`UPDATE media SET slug = v.column2 FROM (VALUES ${sql.join(given.slice(i, i + SLUG_BATCH), sql`, `)}) AS v
          WHERE media.id = v.column1 AND media.slug IS NULL`);
      }
      return rows.length;
    });
  } catch (e) {
    if (attempt >= 2) throw e;
    return fillSlugs(db, attempt + 1);
  }
}

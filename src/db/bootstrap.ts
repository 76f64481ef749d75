// Start-up database work: migrate, then seed. Run by scripts/start.mjs under Node's
// TypeScript support (hence the explicit .ts import paths throughout src/db and src/server).
import { config } from '../server/config.ts';
import { openDatabase } from './client.ts';
import { applyMigrations } from './migrate.ts';
import { seed, type SeedResult } from './seed.ts';
import { seedDemoMedia } from '../server/media/demo.ts';
import { ensureSlugs } from '../server/media/slugs.ts';

export async function bootstrapDatabase(log: (line: string) => void = console.log): Promise<SeedResult> {
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await applyMigrations(db);
    const result = await seed(db, {
      adminUsername: config.ADMIN_USERNAME,
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
      demoContent: config.DEMO_CONTENT,
      log,
      seedDemoMedia,
    });
    // Watch-page slugs for rows from before migration 0008 (and the demo media just added).
    await ensureSlugs(db);
    return result;
  } finally {
    client.close();
  }
}

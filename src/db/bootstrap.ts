// Start-up database work: migrate, then seed. Run by scripts/start.mjs under Node's
// TypeScript support (hence the explicit .ts import paths throughout src/db and src/server).
import { config } from '../server/config.ts';
import { openDatabase } from './client.ts';
import { applyMigrations } from './migrate.ts';
import { seed, type SeedResult } from './seed.ts';
import { seedDemoMedia } from '../server/media/demo.ts';
import { ensureSlugs } from '../server/media/slugs.ts';
import { checkShareLinkKey } from '../server/sharing/link-key.ts';

/**
 * `shareLinkKey`: check (and make) the share-link key: web processes need it, workers do not.
 * `migrations`: the folder of committed migrations (the bundled runtime cannot find it beside itself).
 * `demoMedia`: how a first start with DEMO_CONTENT makes its media (default: in this process;
 * scripts/start.mjs gives them a process of their own, src/server/media/demo-apart.ts).
 */
export async function bootstrapDatabase(
  log: (line: string) => void = console.log,
  opts: { shareLinkKey?: boolean; migrations?: string; demoMedia?: typeof seedDemoMedia } = {},
): Promise<SeedResult> {
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await applyMigrations(db, opts.migrations);
    // The server key (share-link key, issue 32; authenticator secrets, issue 56): made on first
    // start; unreadable or lost, start-up stops.
    const count = async (query: string) => Number((await client.execute(query)).rows[0]!.n);
    const key = !opts.shareLinkKey
      ? { created: null, warning: null }
      : await checkShareLinkKey(async () => ({
          addresses: await count('SELECT count(*) AS n FROM share_links WHERE token_enc IS NOT NULL'),
          secrets: await count('SELECT count(*) AS n FROM totp_factors WHERE confirmed_at IS NOT NULL'),
        }));
    if (key.created) log(`Share-link key created in ${key.created} (mode 0600; keep it with your backups, apart from them)`);
    if (key.warning) console.warn(key.warning);
    const result = await seed(db, {
      adminUsername: config.ADMIN_USERNAME,
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
      demoContent: config.DEMO_CONTENT,
      log,
      seedDemoMedia: opts.demoMedia ?? seedDemoMedia,
    });
    // Watch-page slugs for rows from before migration 0008 (and the demo media just added).
    await ensureSlugs(db);
    return result;
  } finally {
    client.close();
  }
}

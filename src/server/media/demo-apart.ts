// The demo media of a first start (DEMO_CONTENT) are made by a short-lived process of their own
// (scripts/demo-media.mjs), not by the web process that serves afterwards (issue 51): making
// them loaded sharp (libvips' libraries, about 10 MB of mapped pages) and left some 30 MB of
// the image work with the allocator, which never came back, so a web process that seeded the
// demo held 163-167 MB against its 150 MB budget after a day's public pages, where one started
// on the seeded database held 116 MB.
import { spawn } from 'node:child_process';
import { openDatabase, type Database } from '../../db/client.ts';
import { config } from '../config.ts';
import { seedDemoMedia } from './demo.ts';

/** A `seedDemoMedia` for the seed that runs `script` (with the demo client's id) and waits for it. */
export function demoMediaApart(script: string): (db: Database, clientId: number | null) => Promise<void> {
  return (_db, clientId) =>
    new Promise((resolve, reject) => {
      // The same Node flags (memory settings, a test's leash) and the same stdin, stdout and stderr.
      const child = spawn(process.execPath, [...process.execArgv, script, clientId === null ? '' : String(clientId)], { stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`The demo media could not be made (${script} ended with ${signal ?? `code ${code}`})`))));
    });
}

/** What scripts/demo-media.mjs runs: the demo media into the configured database. */
export async function makeDemoMedia(clientId: number | null): Promise<void> {
  const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await seedDemoMedia(db, clientId);
  } finally {
    client.close();
  }
}

// Waking the tailer when another process writes (issue 41): on the embedded database file,
// every commit writes its write-ahead log (`studio.db-wal`) beside it, so a watch on the folder
// tells every process on the machine at once, and a row written by the other web process or a
// worker is sent within milliseconds instead of at the next LIVE_POLL_MS read. A libSQL server
// has no file to watch: the timer alone serves there (and is kept here too, in case a change
// of the file goes unnoticed).
import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config.ts';

/** The database file, when it is one on this machine. */
function databaseFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  return file && file !== ':memory:' ? path.resolve(file) : null;
}

/** Calls `onChange` when the database file or its log changes; answers how to stop. */
export function watchDatabase(onChange: () => void): () => void {
  const file = databaseFile(config.DATABASE_URL);
  if (!file) return () => undefined;
  const base = path.basename(file);
  try {
    const watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
      if (name === `${base}-wal` || name === base) onChange();
    });
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  } catch {
    // No watching here (a file system without it): the timer still reads the table.
    return () => undefined;
  }
}

// Temporary folders of the test helpers (generated sources, samples, copies for ffprobe): each
// is removed after the vitest file that made it (tests/setup/processes.ts) and, for any left,
// when the process exits (Playwright workers), so /tmp does not fill run after run.
// Only node: modules here, as in processes.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// One list per OS process, even if a test runner evaluates this module more than once.
const KEY = Symbol.for('studio.tests.scratch');
const made: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[KEY] ??= installList());

function installList(): Set<string> {
  const dirs = new Set<string>();
  process.once('exit', () => removeDirs(dirs));
  return dirs;
}

function removeDirs(dirs: Set<string>): void {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** A new folder under the system's temporary folder, named `prefix` and six random characters. */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/**
 * A folder made on first use and made again after removeScratchDirs, for a module that keeps
 * generated files for the rest of its process (`forget` drops what it remembers of them).
 */
export function lazyScratchDir(prefix: string, forget: () => void = () => {}): () => string {
  let dir: string | null = null;
  return () => {
    if (dir === null || !made.has(dir)) {
      forget();
      dir = scratchDir(prefix);
    }
    return dir;
  };
}

/** Removes every folder made so far (after each vitest file). */
export function removeScratchDirs(): void {
  removeDirs(made);
}

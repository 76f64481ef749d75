// Keeps long uploads from growing the process's memory. Every request-body chunk is a new
// Buffer that is garbage once written to disk, but V8 only collects when ~64 MB of such
// external memory has piled up, so a long upload would hold that much extra for its whole
// duration. A young-generation collection every 8 MB frees those chunks early; it costs
// about a millisecond. Without access to gc() this does nothing.
import v8 from 'node:v8';
import vm from 'node:vm';

type Gc = (opts?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

let gc: Gc | null | undefined;

function getGc(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    const existing = (globalThis as { gc?: Gc }).gc;
    if (existing) return (gc = existing);
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as Gc;
  } catch {
    gc = null;
  }
  return gc;
}

export const RELEASE_EVERY_BYTES = 8 * 1024 * 1024;

/** Frees short-lived garbage (the chunks already written). */
export function releaseGarbage(): void {
  try {
    getGc()?.({ type: 'minor' });
  } catch {
    /* best effort */
  }
}

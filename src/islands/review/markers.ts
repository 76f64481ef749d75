// Notes of any list (portal, admin, share page) as seek-bar markers (issue 29).
import type { MarkerNote } from './NoteMarkers.tsx';
import { noteMs } from './frames.ts';

interface NoteRow {
  id: number;
  source?: string;
  timestampMs?: number | null;
  timestampSeconds?: number | null;
  endMs?: number | null;
  resolvedAt: string | null;
}

export function noteMarkers<T extends NoteRow>(notes: T[], describe: (n: T) => { author: string; text: string }): MarkerNote[] {
  return notes.map((n) => ({ key: `${n.source ?? 'note'}-${n.id}`, ms: noteMs(n), endMs: n.endMs ?? null, resolved: !!n.resolvedAt, ...describe(n) }));
}

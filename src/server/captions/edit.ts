// Editing captions in the browser (issue 54 item 3): the editor opens a track's current
// revision, and saving writes the whole track as edited as the next revision (source 'edited'),
// so every save has its author, time and a diff against the one before, and any revision can be
// brought back (a new revision with its cues: history is never rewritten). A save names the
// revision it was opened at; when someone saved since, it is refused (409) and nothing is lost
// on either side. The cues obey the rules of an uploaded file (cue-text.ts, parse.ts), with
// messages naming the cue instead of a line.
import { and, desc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionRevisions, captionTracks, users } from '../../db/schema.ts';
import { conflict, HttpError, notFound } from '../http.ts';
import type { CaptionDiff, CaptionDiffCue, CaptionDiffEntry, CaptionEdit, CaptionEditorState, CaptionRevisionInfo } from '../../shared/schemas/captions.ts';
import { cleanCueText, vttSettings, type Notes } from './cue-text.ts';
import { CaptionInputError } from './errors.ts';
import { checkOnScreen, formatTime } from './parse.ts';
import { cuesOf, timingOf, type VersionTiming } from './read.ts';
import { toWebVtt, type OutCue } from './format.ts';
import { bumpWhenPublic, captionVersion, insertRevision, trackOfItem } from './store.ts';

/** The stored form (escaped, tags kept) as people type it. */
export const editorText = (stored: string) => stored.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function trackAndTiming(mediaId: number, trackId: number) {
  const track = await trackOfItem(mediaId, trackId);
  if (!track.currentRevisionId) throw conflict('This track is still being written: try again in a moment');
  const version = await captionVersion(mediaId, track.versionId);
  return { track, timing: timingOf(version) };
}

async function revisionList(trackId: number, currentId: number): Promise<CaptionRevisionInfo[]> {
  const rows = await db
    .select({
      id: captionRevisions.id,
      number: captionRevisions.number,
      source: captionRevisions.source,
      fileName: captionRevisions.fileName,
      cueCount: captionRevisions.cueCount,
      notes: captionRevisions.notes,
      createdAt: captionRevisions.createdAt,
      displayName: users.displayName,
      username: users.username,
    })
    .from(captionRevisions)
    .leftJoin(users, eq(users.id, captionRevisions.createdBy))
    .where(eq(captionRevisions.trackId, trackId))
    .orderBy(desc(captionRevisions.number));
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    source: r.source,
    fileName: r.fileName,
    cueCount: r.cueCount,
    notes: r.notes,
    author: r.displayName || r.username || null,
    createdAt: r.createdAt.toISOString(),
    current: r.id === currentId,
  }));
}

/** GET …/captions/{trackId}/cues: what the editor opens. */
export async function editorState(mediaId: number, trackId: number): Promise<CaptionEditorState> {
  const { track, timing } = await trackAndTiming(mediaId, trackId);
  const revisions = await revisionList(trackId, track.currentRevisionId!);
  const current = revisions.find((r) => r.current)!;
  const cues = await cuesOf(track.currentRevisionId!);
  return {
    track: { id: track.id, label: track.label, language: track.language, kind: track.kind, revision: current.number, revisionId: current.id },
    cues: cues.map((c) => ({ startMs: c.startMs, endMs: c.endMs, text: editorText(c.text), settings: c.settings })),
    fps: timing.fps,
    durationMs: timing.durationMs,
    revisions,
  };
}

/** The edited cues as stored, in order of their start; 400 naming the cue (its number as sent) for anything an upload would refuse. */
export function cleanEditedCues(input: CaptionEdit['cues'], timing: VersionTiming): { cues: OutCue[]; notes: string[] } {
  const notes: Notes = new Set();
  const at = (i: number, problem: string): never => {
    throw new HttpError(400, `Cue ${i + 1}: ${problem}`);
  };
  const cues: (OutCue & { line: number })[] = [];
  input.forEach((c, i) => {
    if (c.endMs <= c.startMs) at(i, `it ends (${formatTime(c.endMs)}) before it starts (${formatTime(c.startMs)})`);
    if (timing.durationMs != null && c.startMs >= timing.durationMs) at(i, `it starts at ${formatTime(c.startMs)}, after the film ends (${formatTime(timing.durationMs)})`);
    let clean;
    try {
      clean = cleanCueText(c.text, i + 1, notes, vttSettings(c.settings ?? '', notes));
    } catch (e) {
      if (e instanceof CaptionInputError) at(i, e.problem);
      throw e;
    }
    if (!clean) at(i, 'it has no text (delete the cue instead)');
    const endMs = timing.durationMs != null ? Math.min(c.endMs, timing.durationMs) : c.endMs;
    cues.push({ startMs: c.startMs, endMs, text: clean!.text, settings: clean!.settings, line: i + 1 });
  });
  cues.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  try {
    checkOnScreen(cues, notes);
  } catch (e) {
    if (e instanceof CaptionInputError && e.line) at(e.line - 1, e.problem);
    throw e;
  }
  return { cues: cues.map(({ line: _line, ...c }) => c), notes: [...notes] };
}

const STALE = 'Someone saved this track after you opened it: open it again to see their changes (yours are still in the editor)';

/**
 * Writes `cues` as the track's next revision and makes it current, only if the track is still
 * at `baseRevisionId` (one conditional UPDATE, in the same transaction: two saves from the same
 * revision cannot both land). Answers the new revision's id.
 */
async function writeEdited(trackId: number, baseRevisionId: number, cues: OutCue[], notes: string[], fileName: string, userId: string): Promise<number> {
  const vtt = toWebVtt(cues);
  return db.transaction(async (tx) => {
    const revisionId = await insertRevision(tx, trackId, {
      source: 'edited',
      format: 'vtt',
      encoding: 'utf-8',
      fileName,
      original: Buffer.from(vtt, 'utf8'),
      cues,
      notes,
      createdBy: userId,
    });
    const moved = await tx
      .update(captionTracks)
      .set({ currentRevisionId: revisionId, updatedAt: new Date() })
      .where(and(eq(captionTracks.id, trackId), eq(captionTracks.currentRevisionId, baseRevisionId)))
      .returning({ id: captionTracks.id });
    if (!moved.length) throw conflict(STALE);
    return revisionId;
  });
}

const editedName = (label: string) => `${label.replace(/[^\p{L}\p{N} _.-]+/gu, '').trim() || 'captions'} (edited).vtt`;

/** PUT …/captions/{trackId}/cues. */
export async function saveEdit(mediaId: number, trackId: number, input: CaptionEdit, userId: string): Promise<CaptionEditorState> {
  const { track, timing } = await trackAndTiming(mediaId, trackId);
  // No early check of baseRevisionId here: the conditional update in writeEdited is the one
  // check, race-free, and a stale save rolls back there.
  const { cues, notes } = cleanEditedCues(input.cues, timing);
  await writeEdited(trackId, input.baseRevisionId, cues, notes, editedName(track.label), userId);
  await bumpWhenPublic(mediaId);
  return editorState(mediaId, trackId);
}

/** GET …/captions/{trackId}/revisions. */
export async function trackRevisions(mediaId: number, trackId: number): Promise<CaptionRevisionInfo[]> {
  const { track } = await trackAndTiming(mediaId, trackId);
  return revisionList(trackId, track.currentRevisionId!);
}

async function revisionOf(trackId: number, number: number) {
  const [row] = await db
    .select()
    .from(captionRevisions)
    .where(and(eq(captionRevisions.trackId, trackId), eq(captionRevisions.number, number)))
    .limit(1);
  if (!row) throw notFound(`Revision ${number} not found`);
  return row;
}

const diffCue = (c: OutCue): CaptionDiffCue => ({ startMs: c.startMs, endMs: c.endMs, text: editorText(c.text) });
const keyOf = (c: OutCue) => `${c.startMs}|${c.endMs}|${c.text}|${c.settings}`;

/**
 * The cues of `after` against `before`: identical cues (times, text and placing) are unchanged;
 * of the rest, a cue that kept its start or its text is "changed", the others added or removed.
 * Linear in the cues, so a two-hour film's diff is instant.
 */
export function diffCues(before: readonly OutCue[], after: readonly OutCue[]): { unchanged: number; entries: CaptionDiffEntry[] } {
  const left = new Map<string, number>();
  for (const c of before) left.set(keyOf(c), (left.get(keyOf(c)) ?? 0) + 1);
  let unchanged = 0;
  const added: OutCue[] = [];
  for (const c of after) {
    const n = left.get(keyOf(c)) ?? 0;
    if (n > 0) {
      left.set(keyOf(c), n - 1);
      unchanged++;
    } else added.push(c);
  }
  const removed: OutCue[] = [];
  const pending = new Map(left);
  for (const c of before) {
    const n = pending.get(keyOf(c)) ?? 0;
    if (n > 0) {
      pending.set(keyOf(c), n - 1);
      removed.push(c);
    }
  }
  const entries: CaptionDiffEntry[] = [];
  const byStart = new Map<number, OutCue[]>();
  const byText = new Map<string, OutCue[]>();
  for (const c of removed) {
    byStart.set(c.startMs, [...(byStart.get(c.startMs) ?? []), c]);
    byText.set(c.text, [...(byText.get(c.text) ?? []), c]);
  }
  const used = new Set<OutCue>();
  const take = (list: OutCue[] | undefined) => {
    const c = list?.find((x) => !used.has(x));
    if (c) used.add(c);
    return c;
  };
  for (const c of added) {
    const was = take(byStart.get(c.startMs)) ?? take(byText.get(c.text));
    entries.push(was ? { change: 'changed', before: diffCue(was), after: diffCue(c) } : { change: 'added', before: null, after: diffCue(c) });
  }
  for (const c of removed) if (!used.has(c)) entries.push({ change: 'removed', before: diffCue(c), after: null });
  const time = (e: CaptionDiffEntry) => (e.after ?? e.before)!.startMs;
  entries.sort((a, b) => time(a) - time(b));
  return { unchanged, entries };
}

/** GET …/captions/{trackId}/revisions/{number}/diff: that revision against the one before it. */
export async function revisionDiff(mediaId: number, trackId: number, number: number): Promise<CaptionDiff> {
  await trackOfItem(mediaId, trackId);
  const rev = await revisionOf(trackId, number);
  const previous = number > 1 ? await revisionOf(trackId, number - 1).catch(() => null) : null;
  const { unchanged, entries } = diffCues(previous ? await cuesOf(previous.id) : [], await cuesOf(rev.id));
  return { number, against: previous?.number ?? null, unchanged, entries };
}

/** POST …/captions/{trackId}/revisions/{number}/revert: that revision's file and cues again, as the next revision. */
export async function revertTo(mediaId: number, trackId: number, number: number, userId: string): Promise<CaptionEditorState> {
  const { track } = await trackAndTiming(mediaId, trackId);
  const rev = await revisionOf(trackId, number);
  if (rev.id === track.currentRevisionId) throw conflict(`Revision ${number} is the current one already`);
  const cues = await cuesOf(rev.id);
  await db.transaction(async (tx) => {
    const revisionId = await insertRevision(tx, trackId, {
      source: rev.source,
      format: rev.format,
      encoding: rev.encoding,
      fileName: rev.fileName,
      original: rev.original,
      cues,
      notes: [`brought back from revision ${number}`],
      createdBy: userId,
    });
    await tx.update(captionTracks).set({ currentRevisionId: revisionId, updatedAt: new Date() }).where(eq(captionTracks.id, trackId));
  });
  await bumpWhenPublic(mediaId);
  return editorState(mediaId, trackId);
}


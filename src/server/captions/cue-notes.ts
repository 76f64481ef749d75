// Notes pinned to a caption cue (issue 54 item 3). A note (a client's, a staff member's or a
// link guest's) may name a caption track of its version: the cue that track shows at the note's
// time is pinned to it (its words and times as they read then, kept with the note whatever the
// track becomes), and the note may propose a wording for it. Staff accept a proposal in one
// click: the track's next revision is the current one with that cue's words replaced, written
// through the editor's save (edit.ts), so it has its author, a diff and a way back like any edit.
import { eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionRevisions, captionTracks, noteCues, shareComments, timelineNotes } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../http.ts';
import type { NoteCue, NoteCueInput } from '../../shared/schemas/notes.ts';
import { cleanCueText, plainCueText } from './cue-text.ts';
import { CaptionInputError } from './errors.ts';
import { formatTime } from './parse.ts';
import { cuesOf, trackById, versionTiming } from './read.ts';
import { editorState, editorText, saveEdit } from './edit.ts';

export interface CuePin {
  trackId: number;
  trackLabel: string;
  revisionId: number;
  startMs: number;
  endMs: number;
  cueText: string;
  proposal: string | null;
}

/** Which table the note is in: timeline_notes (clients' and staff notes) or share_comments (link guests'). */
export type NoteSource = 'client' | 'link';

export const CUE_CHANGED = 'That cue has changed since the note was written: edit the captions instead (the note keeps the words it was about).';

function checkProposal(text: string): void {
  try {
    if (!cleanCueText(text, 1, new Set())) throw badRequest('proposal: The proposed wording has no text');
  } catch (e) {
    if (e instanceof CaptionInputError) throw badRequest(`proposal: ${e.problem}`);
    throw e;
  }
}

/**
 * The cue `input.cueTrackId` (a track of `versionId`) shows at `atMs`, or null when the note names
 * no track. A cue shows from its first frame: half a frame before its start counts (a player
 * paused on that frame may report a time a little before it). 400 naming the field otherwise.
 */
export async function pinCue(versionId: number, input: NoteCueInput, atMs: number): Promise<CuePin | null> {
  if (input.cueTrackId == null) return null;
  const track = await trackById(input.cueTrackId);
  if (!track || track.versionId !== versionId) throw badRequest('cueTrackId: That caption track is not on the version the note is about');
  const { fps } = await versionTiming(versionId);
  const halfFrame = 500 / (fps ?? 25);
  const cue = (await cuesOf(track.revisionId)).filter((c) => c.startMs - halfFrame <= atMs && atMs < c.endMs).at(-1);
  if (!cue) throw badRequest(`cueTrackId: No cue of ${track.label} shows at ${formatTime(atMs)}`);
  if (input.proposal != null) checkProposal(input.proposal);
  return { trackId: track.id, trackLabel: track.label, revisionId: track.revisionId, startMs: cue.startMs, endMs: cue.endMs, cueText: cue.text, proposal: input.proposal ?? null };
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

/**
 * Writes a note (`insert`, answering its row) and its pin, if any, in one transaction: a note is
 * never stored without the cue it was written about. `source` says which table the note is in.
 */
export async function insertPinned<T extends { id: number }>(source: NoteSource, pin: CuePin | null, insert: (tx: Tx) => Promise<T>): Promise<{ row: T; cue: NoteCue | null }> {
  return db.transaction(async (tx) => {
    const row = await insert(tx);
    if (!pin) return { row, cue: null };
    const [stored] = await tx
      .insert(noteCues)
      .values({ ...(source === 'link' ? { shareCommentId: row.id } : { timelineNoteId: row.id }), trackId: pin.trackId, revisionId: pin.revisionId, startMs: pin.startMs, endMs: pin.endMs, cueText: pin.cueText, proposal: pin.proposal })
      .returning({ id: noteCues.id });
    const cue = { id: stored!.id, trackId: pin.trackId, trackLabel: pin.trackLabel, startMs: pin.startMs, endMs: pin.endMs, text: plainCueText(pin.cueText), proposal: pin.proposal, acceptedRevision: null, acceptedAt: null };
    return { row, cue };
  });
}

/** The pins of these notes (of one source), by note id. */
export async function cuesFor(source: NoteSource, noteIds: number[]): Promise<Map<number, NoteCue>> {
  const out = new Map<number, NoteCue>();
  if (!noteIds.length) return out;
  const column = source === 'link' ? noteCues.shareCommentId : noteCues.timelineNoteId;
  const rows = await db
    .select({ pin: noteCues, trackLabel: captionTracks.label, acceptedRevision: captionRevisions.number })
    .from(noteCues)
    .leftJoin(captionTracks, eq(captionTracks.id, noteCues.trackId))
    .leftJoin(captionRevisions, eq(captionRevisions.id, noteCues.acceptedRevisionId))
    .where(inArray(column, noteIds));
  for (const { pin, trackLabel, acceptedRevision } of rows) {
    const noteId = (source === 'link' ? pin.shareCommentId : pin.timelineNoteId)!;
    out.set(noteId, {
      id: pin.id,
      trackId: pin.trackId,
      trackLabel: trackLabel ?? null,
      startMs: pin.startMs,
      endMs: pin.endMs,
      text: plainCueText(pin.cueText),
      proposal: pin.proposal,
      acceptedRevision: acceptedRevision ?? null,
      acceptedAt: pin.acceptedAt?.toISOString() ?? null,
    });
  }
  return out;
}

/**
 * Accepts the note's proposed wording into its track: the next revision is the current one with
 * the pinned cue's words replaced (by `userId`, through the editor's save, so a save by someone
 * else at the same moment makes one of the two a 409). 409 when there is nothing to accept, it
 * was accepted already, the track is gone, or the cue no longer reads as it did.
 */
export async function acceptProposal(noteId: number, source: NoteSource, userId: string): Promise<NoteCue> {
  const column = source === 'link' ? noteCues.shareCommentId : noteCues.timelineNoteId;
  const mediaColumn = source === 'link' ? shareComments.mediaId : timelineNotes.mediaId;
  const noteTable = source === 'link' ? shareComments : timelineNotes;
  const [row] = await db
    .select({ pin: noteCues, mediaId: mediaColumn })
    .from(noteTable)
    .leftJoin(noteCues, eq(column, noteTable.id))
    .where(eq(noteTable.id, noteId))
    .limit(1);
  if (!row) throw notFound(source === 'link' ? 'Share comment not found' : 'Timeline note not found');
  const pin = row.pin;
  if (!pin?.proposal) throw conflict('This note proposes no wording for a cue');
  if (pin.acceptedAt) throw conflict('This wording has already been accepted');
  if (pin.trackId == null) throw conflict('The caption track this note is about has been deleted');
  const state = await editorState(row.mediaId, pin.trackId);
  const at = state.cues.findIndex((c) => c.startMs === pin.startMs && c.endMs === pin.endMs && c.text === editorText(pin.cueText));
  if (at < 0) throw conflict(CUE_CHANGED);
  const cues = state.cues.map((c, i) => (i === at ? { ...c, text: pin.proposal! } : c));
  const saved = await saveEdit(row.mediaId, pin.trackId, { baseRevisionId: state.track.revisionId, cues }, userId);
  // The save above moved the track on from the revision read here, so a second accept of the
  // same note (or an editor's save) racing this one was refused there; this marks the note.
  await db.update(noteCues).set({ acceptedRevisionId: saved.track.revisionId, acceptedAt: new Date(), acceptedBy: userId }).where(eq(noteCues.id, pin.id));
  return (await cuesFor(source, [noteId])).get(noteId)!;
}

// Timeline notes' time and drawings (issue 29), one definition for clients' notes, share-link
// visitors' notes and staff notes, and for the islands that draw them.
import { z } from '../zod.ts';
import { multilineText } from './text.ts';

/**
 * The latest timestamp a note may carry when the video's duration is unknown (the server also
 * checks the real duration when it is known). Keeps stored values small, whole and sortable.
 */
export const MAX_TIMELINE_SECONDS = 24 * 3600;
export const MAX_TIMELINE_MS = MAX_TIMELINE_SECONDS * 1000;

export const SHAPE_KINDS = ['freehand', 'arrow', 'rect', 'ellipse'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];
/** The six colours a drawing may use, by name (the islands map them to their palette). */
export const SHAPE_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'white'] as const;
export type ShapeColor = (typeof SHAPE_COLORS)[number];
export const MAX_SHAPES = 50;
/** Points of all the shapes of one note together. */
export const MAX_SHAPE_POINTS = 2000;

const coordinate = z
  .number({ error: 'Coordinates must be numbers from 0 to 1' })
  .refine(Number.isFinite, 'Coordinates must be finite numbers from 0 to 1')
  .min(0, 'Coordinates must be from 0 to 1')
  .max(1, 'Coordinates must be from 0 to 1');

export type Point = [x: number, y: number];
// An array of exactly two rather than z.tuple: the zod chunk is shared by every island that
// validates, the public enquiry form included, and z.tuple alone would add 0.7 KB gzip to it.
const point = z
  .array(coordinate, { error: 'A point must be [x, y]' })
  .length(2, 'A point must be [x, y]') as unknown as z.ZodType<Point, Point>;

/**
 * One shape in coordinates from 0 to 1 of the picture (x from the left, y from the top), so it
 * fits any rendition. freehand: the stroke's points (1 or more); arrow: [from, to]; rect and
 * ellipse: two opposite corners of the box.
 */
export const shapeSchema = z
  .object({
    kind: z.enum(SHAPE_KINDS, { error: `kind must be one of ${SHAPE_KINDS.join(', ')}` }),
    color: z.enum(SHAPE_COLORS, { error: `color must be one of ${SHAPE_COLORS.join(', ')}` }),
    points: z
      .array(point, { error: 'points must be a list of [x, y] points' })
      .min(1, 'A shape needs at least one point')
      .max(MAX_SHAPE_POINTS, `At most ${MAX_SHAPE_POINTS} points per note`),
  })
  .strict()
  .refine((s) => s.kind === 'freehand' || s.points.length === 2, { message: 'An arrow, rectangle or ellipse has exactly 2 points', path: ['points'] });
export type Shape = z.infer<typeof shapeSchema>;

export const shapesSchema = z
  .array(shapeSchema, { error: 'shapes must be a list of shapes' })
  .max(MAX_SHAPES, `At most ${MAX_SHAPES} shapes per note`)
  .refine((list) => list.reduce((n, s) => n + s.points.length, 0) <= MAX_SHAPE_POINTS, `At most ${MAX_SHAPE_POINTS} points per note, all shapes together`);

/**
 * The time fields of a new note. `timestampSeconds` stays as the documents define it (whole
 * seconds, rounded down); `timestampMs` is the exact time. Either may be sent: when both are,
 * `timestampMs` wins and the seconds are derived from it (floor(ms / 1000)); when only seconds,
 * the milliseconds are the whole seconds × 1000. `endMs` makes it a range (after the start).
 */
export const noteTimeFields = {
  timestampSeconds: z
    .number({ error: 'Timestamp must be a number of seconds' })
    .min(0, 'Timestamp must be 0 or more')
    .max(MAX_TIMELINE_SECONDS, `Timestamp must be at most ${MAX_TIMELINE_SECONDS} seconds (24 hours)`)
    .optional(),
  timestampMs: z
    .number({ error: 'timestampMs must be a number of milliseconds' })
    .int('timestampMs must be a whole number of milliseconds')
    .min(0, 'timestampMs must be 0 or more')
    .max(MAX_TIMELINE_MS, `timestampMs must be at most ${MAX_TIMELINE_MS} (24 hours)`)
    .optional(),
  endMs: z
    .number({ error: 'endMs must be a number of milliseconds' })
    .int('endMs must be a whole number of milliseconds')
    .min(1, 'endMs must be after the start')
    .max(MAX_TIMELINE_MS, `endMs must be at most ${MAX_TIMELINE_MS} (24 hours)`)
    .nullable()
    .optional(),
  shapes: shapesSchema.nullable().optional(),
};

export interface NoteTimeInput {
  timestampSeconds?: number;
  timestampMs?: number;
  endMs?: number | null;
  shapes?: Shape[] | null;
}

/** Refinement for an object with noteTimeFields: one of the two times, and the end after the start. */
export function checkNoteTime(v: NoteTimeInput, ctx: z.RefinementCtx): void {
  if (v.timestampMs == null && v.timestampSeconds == null) {
    ctx.addIssue({ code: 'custom', message: 'Timestamp must be a number of seconds', path: ['timestampSeconds'] });
    return;
  }
  const start = v.timestampMs ?? Math.floor(v.timestampSeconds!) * 1000;
  if (v.endMs != null && v.endMs <= start) ctx.addIssue({ code: 'custom', message: 'endMs must be after the start of the note', path: ['endMs'] });
}

export interface NoteTime {
  timestampSeconds: number;
  timestampMs: number;
  endMs: number | null;
  shapes: Shape[];
}

/** The stored time of a checked input: `timestampMs` wins, seconds derived from it. */
export function resolveNoteTime(v: NoteTimeInput): NoteTime {
  const ms = v.timestampMs ?? Math.floor(v.timestampSeconds ?? 0) * 1000;
  return { timestampSeconds: Math.floor(ms / 1000), timestampMs: ms, endMs: v.endMs ?? null, shapes: v.shapes ?? [] };
}

/** The longest wording a note may propose for a cue: a cue's own limit (src/server/captions/cue-text.ts). */
export const MAX_PROPOSAL = 1000;

/**
 * A note pinned to a caption cue (issue 54): `cueTrackId` names a caption track of the note's
 * version, and the cue is the one that track shows at the note's time. `proposal` is a wording
 * for that cue, which staff may accept into the track in one click.
 */
export const noteCueFields = {
  cueTrackId: z.number({ error: 'cueTrackId must be a number' }).int('cueTrackId must be a whole number').positive('cueTrackId must be positive').nullable().optional(),
  proposal: multilineText('Proposed wording', MAX_PROPOSAL, { required: true }).nullable().optional(),
};

export interface NoteCueInput {
  cueTrackId?: number | null;
  proposal?: string | null;
}

/** Refinement: a wording is proposed for a cue, so it needs one. */
export function checkNoteCue(v: NoteCueInput, ctx: z.RefinementCtx): void {
  if (v.proposal != null && v.cueTrackId == null) ctx.addIssue({ code: 'custom', message: 'proposal: pin the note to a caption cue (cueTrackId) to propose a wording', path: ['proposal'] });
}

/** The cue a note is pinned to, as listed with the note. */
export interface NoteCue {
  /** The note-cue row (what "accept" names). */
  id: number;
  /** Null once the track was deleted (the cue's words stay with the note). */
  trackId: number | null;
  trackLabel: string | null;
  startMs: number;
  endMs: number;
  /** The cue's words when the note was written, without styling. */
  text: string;
  proposal: string | null;
  /** The track's revision the wording went into, once accepted. */
  acceptedRevision: number | null;
  acceptedAt: string | null;
}

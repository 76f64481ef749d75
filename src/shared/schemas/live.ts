// Live updates and live review sessions (issue 41): what the event stream carries and what a
// session's participants send. One definition for the endpoints and the islands.
import { z } from '../zod.ts';
import { MAX_TIMELINE_MS, shapesSchema, type Shape } from './notes.ts';

/**
 * The topics a stream delivers. Each message names what changed (ids and states), never a
 * file name or a note's text: a screen that cares asks its own API again, which applies the
 * viewer's rules (internal notes, watermarks) as always.
 */
export const LIVE_TOPICS = [
  'note',
  'feedback',
  'reply',
  'approval',
  'version',
  'processing',
  'media',
  'assignment',
  'link',
  'link-activity',
  'preview',
  'bell',
  'live',
  // A proofing gallery changed (issue 53): `galleryId` and `change` (images, sizes, settings,
  // sets, lists, selection).
  'gallery',
] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** The data of a change message (every topic but `live`). */
export interface LiveChange {
  mediaId: number | null;
  versionId: number | null;
  linkId?: number | null;
  change?: 'created' | 'changed' | 'deleted' | 'assigned' | 'removed' | 'items';
  source?: 'client' | 'staff' | 'link';
  id?: number;
  status?: string | null;
  progress?: number | null;
  locked?: boolean;
  /** Topic `gallery`: which gallery. */
  galleryId?: number;
}

/** The first message of every connection (no id: it is not part of the log). */
export interface LiveHello {
  connection: string;
  /** False when the events since Last-Event-ID could not all be replayed: load everything again. */
  resumed: boolean;
  /** The server's clock (ms), to place the presenter's `at` on this device's clock. */
  serverTime: number;
  sessions: LiveSessionInfo[];
}

export const COMPARE_MODES = ['side', 'wipe'] as const;

/** The presenter's player, as followers mirror it. */
export const liveStateSchema = z
  .object({
    versionId: z.number().int().positive(),
    playing: z.boolean(),
    /** Playback speed; negative while J plays backwards. */
    rate: z.number().min(-32).max(32).refine((r) => r !== 0, 'rate cannot be 0'),
    /** The media time (ms) at the moment it was sent. */
    ms: z.number().min(0).max(MAX_TIMELINE_MS),
    /** The frame shown (paused: the frame every follower sits on). */
    frame: z.number().int().min(0).max(24 * 3600 * 120),
    compare: z
      .object({ left: z.number().int().positive(), right: z.number().int().positive(), mode: z.enum(COMPARE_MODES) })
      .strict()
      .nullable()
      .default(null),
    /** The presenter's captions (issue 54): "off" or "{language}/{kind}"; followers show it until they choose. */
    captions: z
      .string()
      .regex(/^(off|[A-Za-z0-9-]{1,35}\/(subtitles|captions|forced))$/, 'captions must be "off" or a language and kind')
      .nullable()
      .default(null),
  })
  .strict();
export type LiveStateInput = z.input<typeof liveStateSchema>;
export type LiveStateFields = z.infer<typeof liveStateSchema>;

export interface LiveState extends LiveStateFields {
  /** Server time (ms) the state was set: a playing follower adds the time since. */
  at: number;
  /** Grows with every change, so a late or repeated message never undoes a newer one. */
  seq: number;
}

export const livePresenceSchema = z
  .object({
    frame: z.number().int().min(0).max(24 * 3600 * 120).nullable(),
    following: z.boolean(),
  })
  .strict();

/** The laser pointer in 0..1 picture coordinates, or hidden. */
export const livePointerSchema = z
  .object({
    x: z.number().min(0).max(1).nullable(),
    y: z.number().min(0).max(1).nullable(),
  })
  .strict();

export const liveDrawSchema = z.object({ shapes: shapesSchema }).strict();
export const liveControlSchema = z.object({ to: z.number().int().positive() }).strict();
const connectionField = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'connection must be the id the stream gave');
export const liveJoinSchema = z.object({ connection: connectionField }).strict();
/** Leave names the tab's stream, which then stops receiving the session. */
export const liveLeaveSchema = z.object({ connection: connectionField.optional() }).strict();
export const liveStartSchema = z.object({ versionId: z.number().int().positive().optional() }).strict();

export type LiveParticipantKind = 'staff' | 'client' | 'guest';

export interface LiveParticipant {
  id: number;
  name: string;
  kind: LiveParticipantKind;
  present: boolean;
  presenter: boolean;
  following: boolean;
  frame: number | null;
}

export interface LiveSessionInfo {
  id: number;
  mediaId: number;
  presenterName: string;
  startedByName: string;
  startedAt: string;
}

export interface LiveSessionView extends LiveSessionInfo {
  state: LiveState;
  participants: LiveParticipant[];
  /** This viewer's participant id once joined (null before). */
  me: number | null;
  /** Whether this viewer started the session: they may take control back whoever presents. */
  starter: boolean;
  endedAt: string | null;
}

export interface LiveSummary {
  participants: { name: string; kind: LiveParticipantKind }[];
  notes: number;
  startedAt: string;
  endedAt: string;
  reason: 'ended' | 'presenter-left' | 'item-gone';
}

export interface LiveSessionRecord extends LiveSessionInfo {
  endedAt: string | null;
  summary: LiveSummary | null;
}

/** Messages of the `live` topic. */
export type LiveMessage =
  | { type: 'started'; session: LiveSessionInfo }
  | { type: 'ended'; sessionId: number; mediaId: number; summary: LiveSummary }
  | { type: 'state'; sessionId: number; state: LiveState; presenter: number }
  | { type: 'participants'; sessionId: number; participants: LiveParticipant[] }
  | { type: 'presence'; sessionId: number; participant: number; frame: number | null; following: boolean }
  | { type: 'pointer'; sessionId: number; participant: number; name: string; x: number | null; y: number | null }
  | { type: 'draw'; sessionId: number; participant: number; name: string; shapes: Shape[] }
  | { type: 'dropped'; sessionId: number; reason: string };

/**
 * Why a stream was closed by the server (the last message before it ends). After `shutdown`
 * (the process is stopping) and `too-slow` (the tab fell LIVE_SLOW_CLIENT_BYTES behind) the tab
 * reconnects and resumes from its last message; after the others it does not.
 */
export interface LiveClosed {
  reason: 'signed-out' | 'link-gone' | 'access-changed' | 'too-slow' | 'shutdown';
}

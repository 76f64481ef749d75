// Reading caption tracks and cues (issue 54). A revision never changes once written, so its cues
// are kept in memory by revision id (a few hundred kB for the busiest films at most): the
// players' WebVTT, the HLS segments and the transcript are made from them without the database.
import { and, asc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionCues, captionRevisions, captionTracks, mediaVersions } from '../../db/schema.ts';
import { SUBTITLE_GROUP } from '../media/hls.ts';
import type { OutCue } from './format.ts';
import type { CaptionKind } from '../../shared/schemas/captions.ts';

export type Sees = 'all' | 'published';

export interface TrackRow {
  id: number;
  mediaId: number;
  versionId: number;
  language: string;
  label: string;
  kind: CaptionKind;
  published: boolean;
  revisionId: number;
  /** The current revision's original format (srt, vtt, sbv). */
  format: string;
  carriedFrom: number | null;
  createdAt: Date;
}

const trackColumns = {
  id: captionTracks.id,
  mediaId: captionTracks.mediaId,
  versionId: captionTracks.versionId,
  language: captionTracks.language,
  label: captionTracks.label,
  kind: captionTracks.kind,
  published: captionTracks.published,
  revisionId: captionTracks.currentRevisionId,
  format: captionRevisions.format,
  carriedFrom: captionTracks.carriedFrom,
  createdAt: captionTracks.createdAt,
};

/** Tracks in menu order: by language, then subtitles, captions, forced. */
const KIND_ORDER: Record<CaptionKind, number> = { subtitles: 0, captions: 1, forced: 2 };
const ordered = (rows: TrackRow[]) => rows.sort((a, b) => a.label.localeCompare(b.label, 'en') || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id);

/** A version's tracks the viewer may read (published ones only, for the public). */
export async function tracksOfVersion(versionId: number, sees: Sees): Promise<TrackRow[]> {
  const rows = await db
    .select(trackColumns)
    .from(captionTracks)
    .innerJoin(captionRevisions, eq(captionRevisions.id, captionTracks.currentRevisionId))
    .where(and(eq(captionTracks.versionId, versionId), sees === 'published' ? eq(captionTracks.published, true) : undefined));
  return ordered(rows as TrackRow[]);
}

export async function trackById(trackId: number): Promise<TrackRow | null> {
  const [row] = await db.select(trackColumns).from(captionTracks).innerJoin(captionRevisions, eq(captionRevisions.id, captionTracks.currentRevisionId)).where(eq(captionTracks.id, trackId)).limit(1);
  return (row as TrackRow | undefined) ?? null;
}

const MAX_CACHED = 64;
const cache = new Map<number, Promise<OutCue[]>>();

/** A revision's cues in order (kept in memory: revisions never change). */
export function cuesOf(revisionId: number): Promise<OutCue[]> {
  const hit = cache.get(revisionId);
  if (hit) {
    cache.delete(revisionId);
    cache.set(revisionId, hit);
    return hit;
  }
  const loading = db
    .select({ startMs: captionCues.startMs, endMs: captionCues.endMs, text: captionCues.text, settings: captionCues.settings })
    .from(captionCues)
    .where(eq(captionCues.revisionId, revisionId))
    .orderBy(asc(captionCues.seq));
  cache.set(revisionId, loading);
  loading.catch(() => cache.delete(revisionId));
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return loading;
}

/** What the WebVTT of a revision is made against: its version's frame rate and length. */
export interface VersionTiming {
  fps: number | null;
  durationMs: number | null;
}

export function timingOf(v: { probe: Record<string, unknown> | null; durationSeconds: number | null }): VersionTiming {
  const fps = typeof v.probe?.fps === 'number' && Number.isFinite(v.probe.fps) && v.probe.fps > 0 ? v.probe.fps : null;
  const seconds = typeof v.probe?.durationSeconds === 'number' && v.probe.durationSeconds > 0 ? v.probe.durationSeconds : v.durationSeconds;
  return { fps, durationMs: seconds ? Math.round(seconds * 1000) : null };
}

export async function versionTiming(versionId: number): Promise<VersionTiming> {
  const [v] = await db.select({ probe: mediaVersions.probe, durationSeconds: mediaVersions.durationSeconds }).from(mediaVersions).where(eq(mediaVersions.id, versionId)).limit(1);
  return v ? timingOf(v) : { fps: null, durationMs: null };
}

/** The revision row (its original file and how it was read). */
export async function revisionById(revisionId: number) {
  const [row] = await db.select().from(captionRevisions).where(eq(captionRevisions.id, revisionId)).limit(1);
  return row ?? null;
}

const quoted = (s: string) => s.replace(/["\r\n]/g, "'");

/**
 * The EXT-X-MEDIA lines of a version's master playlist (hls.ts withSubtitles): one subtitle
 * rendition per track the viewer reads, its playlist beside the master (`cc-{revision}.m3u8`).
 */
export async function subtitleRenditions(storageKey: string, sees: Sees): Promise<string[]> {
  const rows = await db
    .select(trackColumns)
    .from(captionTracks)
    .innerJoin(captionRevisions, eq(captionRevisions.id, captionTracks.currentRevisionId))
    .innerJoin(mediaVersions, eq(mediaVersions.id, captionTracks.versionId))
    .where(and(eq(mediaVersions.storageKey, storageKey), sees === 'published' ? eq(captionTracks.published, true) : undefined));
  const names = new Set<string>();
  return ordered(rows as TrackRow[]).map((t) => {
    let name = quoted(t.label);
    for (let n = 2; names.has(name); n++) name = `${quoted(t.label)} ${n}`;
    names.add(name);
    const forced = t.kind === 'forced';
    const sdh = t.kind === 'captions' ? ',CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"' : '';
    return `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBTITLE_GROUP}",NAME="${name}",LANGUAGE="${t.language}",DEFAULT=NO,AUTOSELECT=YES,FORCED=${forced ? 'YES' : 'NO'}${sdh},URI="cc-${t.revisionId}.m3u8"`;
  });
}

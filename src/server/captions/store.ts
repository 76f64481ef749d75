// Writing caption tracks (issue 54): an uploaded or extracted file becomes a revision of the
// version's track for its language and kind (a new track, or the next revision of the one
// there), with its original bytes and its cues, in one transaction: a file that cannot be read
// stores nothing. Edits, deletion and "carry the previous version's captions over".
import { and, desc, eq, lt, max, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionBurns, captionCues, captionRevisions, captionTracks, media, mediaVersions } from '../../db/schema.ts';
import { conflict, HttpError, notFound } from '../http.ts';
import { bumpSiteVersion } from '../site-version.ts';
import { liveState } from '../media/visibility.ts';
import { cleanName } from '../media/delivery.ts';
import { storage } from '../storage/index.ts';
import { CAPTION_MAX_BYTES, type CaptionKind, type CaptionSource, type CaptionUpdate } from '../../shared/schemas/captions.ts';
import { decodeCaptionBytes } from './decode.ts';
import { parseCaptions, type ParsedCaptions } from './parse.ts';
import { CaptionInputError } from './errors.ts';
import { canonicalLanguage, defaultLabel, requireLanguage } from './language.ts';
import { timingOf } from './read.ts';
import { captionBurnVariant } from '../storage/paths.ts';

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

export interface CaptionVersion {
  id: number;
  mediaId: number;
  number: number;
  probe: Record<string, unknown> | null;
  durationSeconds: number | null;
}

/** A video's version, or 404; captions belong to videos only. */
export async function captionVersion(mediaId: number, versionId: number): Promise<CaptionVersion & { storageKey: string }> {
  const [row] = await db
    .select({ id: mediaVersions.id, mediaId: mediaVersions.mediaId, number: mediaVersions.number, probe: mediaVersions.probe, durationSeconds: mediaVersions.durationSeconds, storageKey: mediaVersions.storageKey, type: media.type })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(and(eq(mediaVersions.id, versionId), eq(mediaVersions.mediaId, mediaId)))
    .limit(1);
  if (!row) throw notFound('Version not found');
  if (row.type !== 'video') throw new HttpError(400, 'Captions belong to videos: this item is an image');
  return row;
}

export interface NewTrackFields {
  language: string;
  label?: string;
  kind: CaptionKind;
  published?: boolean;
}

export interface StoredCaption {
  trackId: number;
  revisionId: number;
  parsed: ParsedCaptions;
  encoding: ReturnType<typeof decodeCaptionBytes>['encoding'];
}

const CHUNK = 400;

/** Reads `bytes` and stores them as the next revision of the version's track; nothing is stored when they cannot be read. */
export async function storeCaptionFile(
  version: CaptionVersion,
  file: { bytes: Uint8Array; name: string },
  fields: NewTrackFields,
  source: CaptionSource,
  userId: string | null,
  tx?: Tx,
): Promise<StoredCaption> {
  if (file.bytes.length > CAPTION_MAX_BYTES) throw new CaptionInputError(null, `the file is ${(file.bytes.length / 1048576).toFixed(1)} MB; caption files may be at most ${CAPTION_MAX_BYTES / 1048576} MB`, 413);
  const language = source === 'embedded' ? (canonicalLanguage(fields.language, true) ?? 'und') : requireLanguage(fields.language);
  const { text, encoding } = decodeCaptionBytes(file.bytes);
  const parsed = parseCaptions(text, timingOf(version).durationMs);
  const write = async (t: Tx) => {
    const [existing] = await t
      .select({ id: captionTracks.id, label: captionTracks.label })
      .from(captionTracks)
      .where(and(eq(captionTracks.versionId, version.id), eq(captionTracks.language, language), eq(captionTracks.kind, fields.kind)))
      .limit(1);
    const label = fields.label || existing?.label || defaultLabel(language, fields.kind);
    const trackId =
      existing?.id ??
      (await t.insert(captionTracks).values({ mediaId: version.mediaId, versionId: version.id, language, kind: fields.kind, label, published: fields.published ?? false }).returning({ id: captionTracks.id }))[0]!.id;
    const [{ last }] = (await t.select({ last: max(captionRevisions.number) }).from(captionRevisions).where(eq(captionRevisions.trackId, trackId))) as [{ last: number | null }];
    const [rev] = await t
      .insert(captionRevisions)
      .values({
        trackId,
        number: (last ?? 0) + 1,
        source,
        format: parsed.format,
        encoding,
        fileName: cleanName(file.name.split(/[/\\]/).pop() ?? '') || `captions.${parsed.format}`,
        original: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        cueCount: parsed.cues.length,
        notes: parsed.notes,
        createdBy: userId,
      })
      .returning({ id: captionRevisions.id });
    for (let i = 0; i < parsed.cues.length; i += CHUNK) {
      await t.insert(captionCues).values(parsed.cues.slice(i, i + CHUNK).map((c, j) => ({ revisionId: rev!.id, seq: i + j, startMs: c.startMs, endMs: c.endMs, text: c.text, settings: c.settings })));
    }
    await t
      .update(captionTracks)
      .set({ currentRevisionId: rev!.id, label, updatedAt: new Date(), ...(fields.published !== undefined ? { published: fields.published } : {}) })
      .where(eq(captionTracks.id, trackId));
    return { trackId, revisionId: rev!.id };
  };
  const ids = tx ? await write(tx) : await db.transaction(write);
  if (!tx) await bumpWhenPublic(version.mediaId);
  return { ...ids, parsed, encoding };
}

/** Public pages show published tracks: a change to a public item's captions renews them. */
async function bumpWhenPublic(mediaId: number): Promise<void> {
  if ((await liveState(mediaId))?.isPublic) await bumpSiteVersion();
}

async function trackOfItem(mediaId: number, trackId: number) {
  const [row] = await db.select().from(captionTracks).where(and(eq(captionTracks.id, trackId), eq(captionTracks.mediaId, mediaId))).limit(1);
  if (!row) throw notFound('Caption track not found');
  return row;
}

const taken = (language: string, kind: CaptionKind) => conflict(`This version already has a ${kind === 'forced' ? 'forced subtitles' : kind === 'captions' ? 'captions (SDH)' : 'subtitles'} track in ${defaultLabel(language, 'subtitles')}: change or delete that one`);

export async function updateTrack(mediaId: number, trackId: number, patch: CaptionUpdate): Promise<number> {
  const row = await trackOfItem(mediaId, trackId);
  const language = patch.language !== undefined ? requireLanguage(patch.language) : row.language;
  const kind = patch.kind ?? row.kind;
  if (language !== row.language || kind !== row.kind) {
    const [other] = await db
      .select({ id: captionTracks.id })
      .from(captionTracks)
      .where(and(eq(captionTracks.versionId, row.versionId), eq(captionTracks.language, language), eq(captionTracks.kind, kind)))
      .limit(1);
    if (other && other.id !== trackId) throw taken(language, kind);
  }
  await db
    .update(captionTracks)
    .set({ language, kind, ...(patch.label ? { label: patch.label } : {}), ...(patch.published !== undefined ? { published: patch.published } : {}), updatedAt: new Date() })
    .where(eq(captionTracks.id, trackId));
  await bumpWhenPublic(mediaId);
  return row.versionId;
}

export async function deleteTrack(mediaId: number, trackId: number): Promise<number> {
  const row = await trackOfItem(mediaId, trackId);
  const burns = await db.select({ id: captionBurns.id }).from(captionBurns).where(eq(captionBurns.trackId, trackId));
  const [version] = await db.select({ storageKey: mediaVersions.storageKey }).from(mediaVersions).where(eq(mediaVersions.id, row.versionId)).limit(1);
  await db.delete(captionTracks).where(eq(captionTracks.id, trackId));
  if (version) for (const b of burns) await storage.remove(version.storageKey, captionBurnVariant(b.id)).catch(() => {});
  await bumpWhenPublic(mediaId);
  return row.versionId;
}

/**
 * "Carry the previous version's captions over" (issue 54): every track of the newest earlier
 * version that has any, which this version lacks (same language and kind), copied with its
 * current revision's file and cues. Cues that start after this cut ends are left out, and those
 * running past it end with it. A new version starts with none: a new cut may not match.
 */
export async function carryOver(mediaId: number, versionId: number, userId: string): Promise<{ carried: number; from: number }> {
  const version = await captionVersion(mediaId, versionId);
  const [source] = await db
    .select({ id: mediaVersions.id, number: mediaVersions.number })
    .from(mediaVersions)
    .where(and(eq(mediaVersions.mediaId, mediaId), lt(mediaVersions.number, version.number), sql`exists (select 1 from caption_tracks t where t.version_id = ${mediaVersions.id} and t.current_revision_id is not null)`))
    .orderBy(desc(mediaVersions.number))
    .limit(1);
  if (!source) throw conflict(`No earlier version of this item has captions to carry over`);
  const durationMs = timingOf(version).durationMs ?? Number.MAX_SAFE_INTEGER;
  const carried = await db.transaction(async (tx) => {
    const from = await tx.select().from(captionTracks).where(and(eq(captionTracks.versionId, source.id), sql`${captionTracks.currentRevisionId} is not null`));
    const have = await tx.select({ language: captionTracks.language, kind: captionTracks.kind }).from(captionTracks).where(eq(captionTracks.versionId, versionId));
    let n = 0;
    for (const t of from) {
      if (have.some((h) => h.language === t.language && h.kind === t.kind)) continue;
      const [old] = await tx.select().from(captionRevisions).where(eq(captionRevisions.id, t.currentRevisionId!)).limit(1);
      if (!old) continue;
      const [track] = await tx
        .insert(captionTracks)
        .values({ mediaId, versionId, language: t.language, label: t.label, kind: t.kind, published: t.published, carriedFrom: t.id })
        .returning({ id: captionTracks.id });
      const kept = await tx.select({ n: sql<number>`count(*)` }).from(captionCues).where(and(eq(captionCues.revisionId, old.id), lt(captionCues.startMs, durationMs)));
      const [rev] = await tx
        .insert(captionRevisions)
        .values({
          trackId: track!.id,
          number: 1,
          source: old.source,
          format: old.format,
          encoding: old.encoding,
          fileName: old.fileName,
          original: old.original,
          cueCount: kept[0]!.n,
          notes: [...old.notes, `carried over from version ${source.number}${kept[0]!.n < old.cueCount ? `; ${old.cueCount - kept[0]!.n} cues after the end of this cut were left out` : ''}`],
          createdBy: userId,
        })
        .returning({ id: captionRevisions.id });
      // Cues are in order of their start, so those kept are the first ones: their seq stays contiguous.
      await tx.run(
        sql`insert into caption_cues (revision_id, seq, start_ms, end_ms, text, settings)
            select ${rev!.id}, seq, start_ms, min(end_ms, ${durationMs}), text, settings from caption_cues
            where revision_id = ${old.id} and start_ms < ${durationMs}`,
      );
      await tx.update(captionTracks).set({ currentRevisionId: rev!.id }).where(eq(captionTracks.id, track!.id));
      n++;
    }
    return n;
  });
  if (!carried) throw conflict(`This version already has every track of version ${source.number}`);
  await bumpWhenPublic(mediaId);
  return { carried, from: source.number };
}

// The staff side of captions (issue 54): a version's tracks with how each file was read, an
// upload (multipart: the file, language, label, kind, published), and queuing an open-captions
// rendition. The endpoints under src/pages/api/media/… stay thin around these.
import { desc, eq, inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionBurns, captionRevisions, jobs, mediaVersions } from '../../db/schema.ts';
import { describeZodError, HttpError, notFound, readBody } from '../http.ts';
import { mediaUrl } from '../storage/paths.ts';
import {
  CAPTION_ENCODING_LABELS,
  CAPTION_MAX_BYTES,
  captionUploadFieldsSchema,
  type CaptionBurnInfo,
  type CaptionTrackInfo,
  type CaptionUploadResult,
} from '../../shared/schemas/captions.ts';
import { captionVersion, storeCaptionFile } from './store.ts';
import { tracksOfVersion, trackById } from './read.ts';
import { CaptionInputError } from './errors.ts';
import { BURN } from './burn.ts';

const TOO_LARGE = `Caption files may be at most ${CAPTION_MAX_BYTES / 1048576} MB`;

/** Every track of a version as staff see it. */
export async function staffTracks(mediaId: number, versionId: number): Promise<CaptionTrackInfo[]> {
  const version = await captionVersion(mediaId, versionId);
  const tracks = await tracksOfVersion(versionId, 'all');
  if (!tracks.length) return [];
  // Not the original files: a two-hour film's is a quarter of a megabyte, and a version may hold dozens of tracks.
  const revs = await db
    .select({
      id: captionRevisions.id,
      number: captionRevisions.number,
      source: captionRevisions.source,
      format: captionRevisions.format,
      encoding: captionRevisions.encoding,
      fileName: captionRevisions.fileName,
      cueCount: captionRevisions.cueCount,
      notes: captionRevisions.notes,
      createdAt: captionRevisions.createdAt,
    })
    .from(captionRevisions)
    .where(inArray(captionRevisions.id, tracks.map((t) => t.revisionId)));
  const burns = await db.select().from(captionBurns).where(inArray(captionBurns.trackId, tracks.map((t) => t.id))).orderBy(desc(captionBurns.id));
  const at = (f: string) => mediaUrl(version.storageKey, f);
  return tracks.map((t) => {
    const r = revs.find((x) => x.id === t.revisionId)!;
    const own = burns.filter((b) => b.trackId === t.id);
    const ready = own.find((b) => b.status === 'ready' && b.revisionId === t.revisionId);
    return {
      id: t.id,
      versionId,
      language: t.language,
      label: t.label,
      kind: t.kind,
      published: t.published,
      src: at(`cc-${r.id}.vtt`),
      downloads: {
        original: `${at(`cc-${r.id}-original.${r.format}`)}?download=1`,
        srt: `${at(`cc-${r.id}.srt`)}?download=1`,
        vtt: `${at(`cc-${r.id}.vtt`)}?download=1`,
        burnt: ready ? `${at(`oc-${ready.id}.mp4`)}?download=1` : null,
      },
      revision: r.number,
      revisionId: r.id,
      source: r.source,
      format: r.format,
      encoding: r.encoding as CaptionTrackInfo['encoding'],
      fileName: r.fileName,
      cueCount: r.cueCount,
      notes: r.notes,
      carriedFrom: t.carriedFrom,
      createdAt: r.createdAt.toISOString(),
      burns: own.slice(0, 3).map(
        (b): CaptionBurnInfo => ({
          id: b.id,
          status: b.status,
          error: b.error,
          current: b.revisionId === t.revisionId,
          url: b.status === 'ready' ? `${at(`oc-${b.id}.mp4`)}?download=1` : null,
        }),
      ),
    };
  });
}

/** POST …/versions/{versionId}/captions: multipart with `file` and the track's fields. */
export async function uploadCaption(request: Request, mediaId: number, versionId: number, userId: string): Promise<CaptionUploadResult> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, 'Content-Type must be multipart/form-data (the file and its fields)');
  const version = await captionVersion(mediaId, versionId);
  // The form's fields and boundaries are small beside the file.
  const body = await readBody(request, CAPTION_MAX_BYTES + 64 * 1024, TOO_LARGE);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new HttpError(400, 'The form could not be read (malformed multipart body)');
  }
  // One file, in `file`: another file part (a poster, a second caption file) is refused, not dropped.
  const stray = [...form.entries()].find(([k, v]) => v instanceof Blob && k !== 'file');
  if (stray) throw new HttpError(400, `${stray[0]}: only one file is taken, as "file"`);
  if (form.getAll('file').length > 1) throw new HttpError(400, 'file: send one caption file at a time');
  const file = form.get('file');
  if (!(file instanceof Blob)) throw new HttpError(400, 'file: choose a caption file (SRT, WebVTT or SubViewer)');
  if (file.size > CAPTION_MAX_BYTES) throw new CaptionInputError(null, TOO_LARGE, 413);
  const fields = captionUploadFieldsSchema.safeParse(Object.fromEntries([...form.entries()].filter(([k, v]) => k !== 'file' && typeof v === 'string')));
  if (!fields.success) throw new HttpError(400, describeZodError(fields.error));
  const stored = await storeCaptionFile(version, { bytes: new Uint8Array(await file.arrayBuffer()), name: (file as File).name ?? '' }, fields.data, 'uploaded', userId);
  const track = (await staffTracks(mediaId, versionId)).find((t) => t.id === stored.trackId)!;
  return {
    track,
    encoding: stored.encoding,
    encodingLabel: CAPTION_ENCODING_LABELS[stored.encoding],
    format: stored.parsed.format,
    cueCount: stored.parsed.cues.length,
    notes: stored.parsed.notes,
  };
}

/** POST /api/media/{id}/captions/{trackId}/burn: an open-captions rendition of the track's current revision. */
export async function queueBurn(mediaId: number, trackId: number, userId: string): Promise<CaptionBurnInfo> {
  const track = await trackById(trackId);
  if (!track || track.mediaId !== mediaId) throw notFound('Caption track not found');
  const [version] = await db.select({ status: mediaVersions.processingStatus }).from(mediaVersions).where(eq(mediaVersions.id, track.versionId)).limit(1);
  if (version?.status !== 'ready') throw new HttpError(409, 'The video is still being converted: open captions are made from its proxies once they are ready');
  const burn = await db.transaction(async (tx) => {
    const [b] = await tx.insert(captionBurns).values({ trackId, revisionId: track.revisionId, createdBy: userId }).returning();
    await tx.insert(jobs).values({ kind: BURN, mediaId, versionId: track.versionId, captionBurnId: b!.id });
    return b!;
  });
  return { id: burn.id, status: burn.status, error: null, current: true, url: null };
}

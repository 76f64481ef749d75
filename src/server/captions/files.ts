// A version's caption files (issue 54), beside its other files and under the same addresses
// (/media/{key}/… and a share link's /s/{token}/m/{id}/…), with access decided by the caller
// (media/delivery.ts captionViewerOf, or the link): exactly those who may watch the version.
//   captions.json              the tracks this viewer reads, with their addresses
//   cc-{rev}.vtt               WebVTT on the version's frames (<track>; a download too)
//   cc-{rev}.srt               SRT download
//   cc-{rev}-original.{ext}    the file as uploaded or extracted, byte for byte
//   cc-{rev}.m3u8, cc-{rev}-{n}.vtt   the HLS subtitle rendition and its segments
//   oc-{burn}.mp4              an open-captions rendition (a download)
// A revision never changes, so every cc- file of it is made once per process and kept.
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { captionBurns } from '../../db/schema.ts';
import { errorResponse } from '../http.ts';
import { captionViewerOf, cleanName, contentDisposition, serveStoredFile, type CaptionViewer } from '../media/delivery.ts';
import { CAPTION_BURN_RE, captionBurnVariant } from '../storage/paths.ts';
import { DOWNLOADS_AFTER_APPROVAL_MESSAGE } from '../../shared/schemas/review.ts';
import type { CaptionIndex, PlayerCaption } from '../../shared/schemas/captions.ts';
import { onFrames, segmentCount, subtitlePlaylist, subtitleSegment, toSrt, toWebVtt } from './format.ts';
import { cuesOf, revisionById, tracksOfVersion, versionTiming, type TrackRow } from './read.ts';

export const CAPTION_INDEX = 'captions.json';
const CC_RE = /^cc-([1-9]\d{0,11})(?:\.(vtt|srt|m3u8)|-(\d{1,6})\.vtt|-original\.(srt|vtt|sbv))$/;

/** Whether a file name is one of the captions' (the media routes hand those here). */
export function isCaptionFile(file: string): boolean {
  return file === CAPTION_INDEX || CC_RE.test(file) || CAPTION_BURN_RE.test(file);
}

export interface CaptionAccess extends CaptionViewer {
  /** The folder's address, ending in `/` (`/media/{key}/` or `/s/{token}/m/{id}/`). */
  base: string;
  /** Called before a download is sent (a share link logs it). */
  onDownload?: (what: string) => Promise<void>;
}

interface Rendered {
  body: string;
  etag: string;
}
const MAX_RENDERED = 256;
const rendered = new Map<string, Rendered>();

/** A revision's file, made the first time it is asked for (its cues read from the database only then). */
async function renderOnce(key: string, make: () => string | Promise<string>): Promise<Rendered> {
  const hit = rendered.get(key);
  if (hit) return hit;
  const body = await make();
  const out = { body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
  rendered.set(key, out);
  while (rendered.size > MAX_RENDERED) rendered.delete(rendered.keys().next().value!);
  return out;
}

function textAnswer(ctx: APIContext, r: Rendered, type: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { 'Content-Type': type, ETag: r.etag, 'Cache-Control': cacheControl, ...extra };
  if (cacheControl.startsWith('private')) headers.Vary = 'Cookie';
  const inm = ctx.request.headers.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === r.etag)) return new Response(null, { status: 304, headers });
  headers['Content-Length'] = String(Buffer.byteLength(r.body));
  return new Response(ctx.request.method === 'HEAD' ? null : r.body, { status: 200, headers });
}

const stemOf = (title: string) => cleanName(title) || 'captions';

/** What a viewer is told of a track: its player file, and its downloads when they may download. */
function playerCaption(t: TrackRow, access: CaptionAccess, burnt: string | null): PlayerCaption {
  const at = (f: string) => `${access.base}${f}`;
  const rev = t.revisionId;
  return {
    id: t.id,
    language: t.language,
    label: t.label,
    kind: t.kind,
    src: at(`cc-${rev}.vtt`),
    downloads:
      access.downloads === 'open'
        ? { original: `${at(`cc-${rev}-original.${t.format}`)}?download=1`, srt: `${at(`cc-${rev}.srt`)}?download=1`, vtt: `${at(`cc-${rev}.vtt`)}?download=1`, burnt: access.clean && burnt ? `${at(burnt)}?download=1` : null }
        : null,
  };
}

/** The newest ready open-captions file of each track, made from its current revision. */
async function readyBurns(tracks: TrackRow[]): Promise<Map<number, string>> {
  if (!tracks.length) return new Map();
  const rows = await db
    .select({ id: captionBurns.id, trackId: captionBurns.trackId, revisionId: captionBurns.revisionId })
    .from(captionBurns)
    .where(and(inArray(captionBurns.trackId, tracks.map((t) => t.id)), eq(captionBurns.status, 'ready')))
    .orderBy(desc(captionBurns.id));
  const out = new Map<number, string>();
  for (const r of rows) if (!out.has(r.trackId) && tracks.some((t) => t.id === r.trackId && t.revisionId === r.revisionId)) out.set(r.trackId, captionBurnVariant(r.id));
  return out;
}

export async function captionIndex(access: CaptionAccess): Promise<CaptionIndex> {
  const tracks = await tracksOfVersion(access.versionId, access.sees);
  const burns = access.clean && access.downloads === 'open' ? await readyBurns(tracks) : new Map<number, string>();
  return {
    tracks: tracks.map((t) => playerCaption(t, access, burns.get(t.id) ?? null)), downloadBlockedReason: access.downloads === 'wait' && tracks.length ? DOWNLOADS_AFTER_APPROVAL_MESSAGE : null };
}

/** Downloads: 404 where the viewer has none, 403 with the reason while they wait for approval. */
function downloadRefusal(access: CaptionAccess): Response | null {
  if (access.downloads === 'none') return errorResponse(404, 'Not found');
  if (access.downloads === 'wait') return errorResponse(403, DOWNLOADS_AFTER_APPROVAL_MESSAGE);
  return null;
}

export async function serveCaptionFile(ctx: APIContext, storageKey: string, file: string, access: CaptionAccess): Promise<Response> {
  const privately = access.target.isPublic ? 'public, max-age=0, must-revalidate' : 'private, no-store';
  if (file === CAPTION_INDEX) {
    const body = JSON.stringify(await captionIndex(access));
    return textAnswer(ctx, { body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` }, 'application/json; charset=utf-8', privately);
  }
  const burn = CAPTION_BURN_RE.exec(file);
  if (burn) return serveBurn(ctx, storageKey, Number(burn[1]), access);
  const m = CC_RE.exec(file);
  if (!m) return errorResponse(404, 'Not found');
  const revisionId = Number(m[1]);
  const track = (await tracksOfVersion(access.versionId, access.sees)).find((t) => t.revisionId === revisionId);
  if (!track) return errorResponse(404, 'Not found');
  const [, , ext, segment, originalExt] = m;
  const download = ctx.url.searchParams.get('download') === '1' || ext === 'srt' || originalExt !== undefined;
  if (download) {
    const refused = downloadRefusal(access);
    if (refused) return refused;
  }
  const cacheControl = access.target.isPublic ? 'public, max-age=3600' : 'private, no-store';
  const stem = `${stemOf(access.target.title)}.${track.language}`;
  const attach = (name: string): Record<string, string> => (download ? { 'Content-Disposition': contentDisposition(name) } : {});
  if (originalExt !== undefined) {
    const rev = await revisionById(revisionId);
    if (!rev?.original || rev.format !== originalExt) return errorResponse(404, 'Not found');
    await access.onDownload?.(`captions ${track.language} (original)`);
    const body = new Uint8Array(rev.original);
    const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.byteLength), 'Cache-Control': cacheControl, ...attach(rev.fileName || `${stem}.${originalExt}`) };
    if (cacheControl.startsWith('private')) headers.Vary = 'Cookie';
    return new Response(ctx.request.method === 'HEAD' ? null : body, { status: 200, headers });
  }
  const timing = await versionTiming(access.versionId);
  const key = `${revisionId}:${timing.fps}:${timing.durationMs}`;
  const cues = async () => onFrames(await cuesOf(revisionId), timing.fps);
  if (ext === 'vtt' || ext === 'srt') {
    if (download) await access.onDownload?.(`captions ${track.language} (${ext})`);
    const r = await renderOnce(`${key}:${ext}`, async () => {
      const all = await cues();
      return ext === 'vtt' ? toWebVtt(all) : toSrt(all);
    });
    return textAnswer(ctx, r, ext === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8', cacheControl, attach(`${stem}.${ext}`));
  }
  const durationMs = timing.durationMs ?? Math.max(1, ...(await cuesOf(revisionId)).map((c) => c.endMs));
  if (ext === 'm3u8') {
    return textAnswer(ctx, await renderOnce(`${key}:m3u8`, () => subtitlePlaylist(durationMs, `cc-${revisionId}`)), 'application/vnd.apple.mpegurl', cacheControl);
  }
  const n = Number(segment);
  if (n >= segmentCount(durationMs)) return errorResponse(404, 'Not found');
  return textAnswer(ctx, await renderOnce(`${key}:s${n}`, async () => subtitleSegment(await cues(), n)), 'text/vtt; charset=utf-8', cacheControl);
}

async function serveBurn(ctx: APIContext, storageKey: string, burnId: number, access: CaptionAccess): Promise<Response> {
  const [burn] = await db.select().from(captionBurns).where(and(eq(captionBurns.id, burnId), eq(captionBurns.status, 'ready'))).limit(1);
  const track = burn && (await tracksOfVersion(access.versionId, access.sees)).find((t) => t.id === burn.trackId);
  if (!burn || !track || !access.clean) return errorResponse(404, 'Not found');
  const refused = downloadRefusal(access);
  if (refused) return refused;
  const name = `${stemOf(access.target.title)} (${cleanName(track.label) || track.language}, open captions).mp4`;
  return serveStoredFile(ctx, storageKey, captionBurnVariant(burnId), { ...access.target, mimeType: 'video/mp4', downloadAs: name }, {
    onTransfer: async (fromStart) => {
      if (fromStart) await access.onDownload?.(`open captions ${track.language}`);
    },
  });
}

/** A caption file under /media/{key}/: for those who may watch that version (captionViewerOf). */
export async function serveCaptionMediaFile(ctx: APIContext, storageKey: string, file: string): Promise<Response> {
  const viewer = await captionViewerOf(ctx, storageKey);
  if (!viewer) return errorResponse(404, 'Not found');
  return serveCaptionFile(ctx, storageKey, file, { ...viewer, base: `/media/${storageKey}/` });
}

// Serves media files: visibility check, conditional requests (ETag / Last-Modified → 304),
// byte ranges (206 / 416, suffix ranges), downloads, and a streamed body that respects
// the client's pace. Every refusal is a 404 so private items are not revealed.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import type { APIContext } from 'astro';
import { db } from '../../db/index.ts';
import { media, mediaClients, mediaVersions } from '../../db/schema.ts';
import { errorResponse } from '../http.ts';
import { isPublicSql, seesGalleryStills, seesWholeLibrary } from './visibility.ts';
import { CAPTION_BURN_RE, contentTypeForVariant, LINK_PREVIEW_RE, linkPreviewVariant, mediaFilePath, STORAGE_KEY_RE, VARIANT_RE, VARIANTS } from '../storage/paths.ts';
import { clientWatermarkLink } from '../sharing/client-watermark.ts';
import { clientGateLink } from '../sharing/client-gate.ts';
import { allowedVariant } from '../sharing/link-files.ts';
import { filterMaster, withSubtitles } from './hls.ts';
import { subtitleRenditions } from '../captions/read.ts';
import { clientDownloadsClosed, DOWNLOADS_AFTER_APPROVAL_MESSAGE } from '../review/download-gate.ts';
import { currentNodeResponse } from './node-response.ts';
import { CHUNK, pacedStream } from './paced-stream.ts';
import { config } from '../config.ts';
import type { FileSource } from './file-source.ts';
import { audit } from '../audit/record.ts';
import { clientOrigin, staffOrigin } from '../audit/origin.ts';

const YEAR = 31_536_000;

export interface Target {
  id: number;
  mimeType: string;
  filename: string;
  title: string;
  isPublic: boolean;
  /** The name a `?download=1` answer offers instead of `downloadName()` (share links: `linkDownloadName()`). */
  downloadAs?: string;
  /**
   * For a viewer who may fetch only some of the folder (a share link, a closed gate): what they
   * may fetch. Their master playlist is then made to name only those sizes (issue 40).
   */
  only?: (variant: string) => boolean;
  /** Which caption tracks its master playlist names as subtitle renditions (issue 54). */
  captions?: 'all' | 'published';
}

const targetColumns = { id: media.id, type: media.type, mimeType: media.mimeType, filename: media.filename, title: media.title, clientId: media.clientId, galleryId: media.galleryId, isPublic: isPublicSql };

async function findCurrent(storageKey: string) {
  const [row] = await db.select(targetColumns).from(media).where(eq(media.storageKey, storageKey)).limit(1);
  return row ?? null;
}

/**
 * A version other than the current one (issue 16). Never public, even when the item is on the
 * site: the public sees the current cut only; staff and assigned clients see every version.
 */
async function findOlderVersion(storageKey: string) {
  const [row] = await db
    .select({ ...targetColumns, mimeType: mediaVersions.mimeType, filename: mediaVersions.filename })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(eq(mediaVersions.storageKey, storageKey))
    .limit(1);
  return row ? { ...row, isPublic: 0 } : null;
}

/** findVisible's answer for a client whose downloads wait for approval (issue 30): 403 with the reason. */
const DOWNLOAD_WAITS = Symbol('downloads wait for approval');

/**
 * For a client, what counts as a download (issue 30): every original (any version, with or
 * without ?download=1: it is never what the portal plays once proxies exist) and any file asked
 * for with ?download=1. Proxies, posters, thumbnails and the sprite without it are for playing.
 */
export function isClientDownload(variant: string, url: URL): boolean {
  return variant.startsWith('original.') || url.searchParams.get('download') === '1';
}

/**
 * Who may fetch: the public for public items; staff who see the whole library (view:media, or
 * edit:website for its media pickers; a gallery's stills only with view:media); an assigned client. A share link's preview (lp-…) is
 * never public: only staff and the client whose watermark or gate (issue 40) made it fetch it
 * here (a link's visitors fetch theirs under /s/).
 */
async function findVisible(ctx: APIContext, storageKey: string, variant: string): Promise<Target | typeof DOWNLOAD_WAITS | null> {
  const row = (await findCurrent(storageKey)) ?? (await findOlderVersion(storageKey));
  if (!row) return null;
  const linkPreview = LINK_PREVIEW_RE.test(variant);
  const target = { id: row.id, mimeType: row.mimeType, filename: row.filename, title: row.title, isPublic: !!row.isPublic && !linkPreview };
  const staff = ctx.locals.user ? ctx.locals.permissions : null;
  if (staff && (seesGalleryStills(staff) || (row.galleryId == null && seesWholeLibrary(staff)))) return { ...target, captions: 'all' };
  if (target.isPublic) return { ...target, captions: 'published' };
  const client = ctx.locals.clientUser;
  if (!client || !(await isClientsItem(row, client.clientId))) return null;
  // A client set to watermarked previews gets its preview and nothing clean (issue 17).
  const watermark = await clientWatermarkLink(client.clientId);
  if (watermark && variant !== linkPreviewVariant(watermark, row.type)) return null;
  // A client set to "downloads wait for approval" (issue 30): no download of any version of the
  // item until its current version is approved. Public items never reach here (anyone fetches them).
  const closed = await clientDownloadsClosed(client.clientId, row.id);
  if (closed && isClientDownload(variant, ctx.url)) return DOWNLOAD_WAITS;
  if (watermark) return { ...target, captions: 'all' };
  // Meanwhile such a client sees what a "No downloads" link shows (issue 40): its own row's
  // previews of images and remuxed videos, encodes up to 1080p, no full-size WebP. Every other
  // client gets the item's own files and no link's preview.
  if (closed) {
    const gate = await clientGateLink(client.clientId);
    const [version] = await db.select().from(mediaVersions).where(eq(mediaVersions.storageKey, storageKey)).limit(1);
    if (!gate || !version) return null;
    const only = (v: string) => allowedVariant(gate, { item: row, version }, v, false);
    return only(variant) ? { ...target, only, captions: 'all' } : null;
  }
  return linkPreview ? null : { ...target, captions: 'all' };
}

/** Whether the item is the client's: its own, or assigned to it (portal/assigned.ts says the same in SQL). */
async function isClientsItem(row: { id: number; clientId: number | null }, clientId: number): Promise<boolean> {
  if (row.clientId === clientId) return true;
  const [link] = await db
    .select({ id: mediaClients.id })
    .from(mediaClients)
    .where(sql`${mediaClients.mediaId} = ${row.id} AND ${mediaClients.clientId} = ${clientId}`)
    .limit(1);
  return !!link;
}

/**
 * Who watches a version's captions (issue 54), by the rules of the folder they sit in: exactly
 * those who may watch the version. Staff who see the whole library and the item's clients read
 * every track (a client whose downloads wait for approval may not yet download them; a client
 * on watermarked previews gets no clean picture, so no open-captions file); anyone else reads
 * the published tracks of a public item's current version. null: nobody here.
 */
export interface CaptionViewer {
  target: Target;
  versionId: number;
  sees: 'all' | 'published';
  /** Caption downloads: 'open', 'wait' (for approval, 403 with the reason) or 'none' (404). */
  downloads: 'open' | 'wait' | 'none';
  /** Whether open-captions renditions (a clean picture) may be downloaded. */
  clean: boolean;
}

export async function captionViewerOf(ctx: APIContext, storageKey: string): Promise<CaptionViewer | null> {
  if (!STORAGE_KEY_RE.test(storageKey)) return null;
  const row = (await findCurrent(storageKey)) ?? (await findOlderVersion(storageKey));
  if (!row) return null;
  const [version] = await db.select({ id: mediaVersions.id }).from(mediaVersions).where(eq(mediaVersions.storageKey, storageKey)).limit(1);
  if (!version) return null;
  const target: Target = { id: row.id, mimeType: row.mimeType, filename: row.filename, title: row.title, isPublic: false };
  const viewer = (sees: CaptionViewer['sees'], downloads: CaptionViewer['downloads'], clean: boolean): CaptionViewer => ({ target, versionId: version.id, sees, downloads, clean });
  if (ctx.locals.user && seesWholeLibrary(ctx.locals.permissions)) return viewer('all', 'open', true);
  const client = ctx.locals.clientUser;
  if (client && (await isClientsItem(row, client.clientId))) {
    const closed = await clientDownloadsClosed(client.clientId, row.id);
    return viewer('all', closed ? 'wait' : 'open', !(await clientWatermarkLink(client.clientId)));
  }
  if (row.isPublic) return { ...viewer('published', 'none', false), target: { ...target, isPublic: true } };
  return null;
}

export type RangeResult = { start: number; end: number } | 'unsatisfiable' | null;

type RangeSpec = { first: number; last: number | null } | { suffix: number };

/**
 * A Range header read as RFC 9110 (section 14) reads it, which is also what nginx honours:
 * `bytes=` (the unit in any case, nothing on either side of "=") and one range-spec with no
 * space inside: `first-`, `first-last` (last >= first) or `-suffix`. Anything else (another
 * unit, `bytes =1-`, `bytes=1 -`, a list of ranges, garbage) is null: no range, the whole
 * file. nginx sends the whole file for `bytes =1-` too, so reading it as a range here would
 * let a download from byte 0 pass unlogged behind it (issue 40).
 */
function rangeSpec(header: string | null): RangeSpec | null {
  const m = header ? /^bytes=(?:(\d+)-(\d*)|-(\d+))$/i.exec(header.trim()) : null;
  if (!m) return null;
  if (m[3] !== undefined) return { suffix: Number(m[3]) };
  const first = Number(m[1]);
  const last = m[2] === '' ? null : Number(m[2]);
  return last !== null && last < first ? null : { first, last };
}

/** The one range to send of a file of `size` bytes; null = ignore the header (serve all). */
export function parseRange(header: string | null, size: number): RangeResult {
  const spec = rangeSpec(header);
  if (!spec) return null;
  if ('suffix' in spec) {
    if (spec.suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - spec.suffix), end: size - 1 };
  }
  if (spec.first >= size) return 'unsatisfiable';
  return { start: spec.first, end: spec.last === null ? size - 1 : Math.min(spec.last, size - 1) };
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** RFC 6266 header: an ASCII `filename` fallback and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const MAX_STEM = 120;

/** Characters file systems refuse, quotes and `;`, and the folder separators. */
const UNSAFE_IN_NAME = /["'`:*?<>|;/\\]/;
/** A character that is dots or space once compatibility forms are folded (`．`, `…`, U+2024). */
const dotOrSpace = (ch: string) => /^[\s.]+$/u.test(ch.normalize('NFKC'));

/**
 * A staff-given name made safe to offer as a file name: no folders, no control or invisible
 * formatting characters (a right-to-left override can make `gnp.exe` read as `exe.png`), no
 * quotes or characters that file systems refuse, no leading or trailing dots. Each character is
 * judged as written and as tools that fold compatibility forms read it (NFKC, Windows' best-fit
 * code pages): to them fullwidth `．．／` is `../` and `℅` is `c/o` (issue 51).
 */
export function cleanName(text: string): string {
  const safe = Array.from(text.normalize('NFC').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')).filter((ch) => !UNSAFE_IN_NAME.test(ch.normalize('NFKC')));
  const chars = Array.from(safe.join('').replace(/\s+/g, ' '));
  let start = 0;
  let end = chars.length;
  while (start < end && dotOrSpace(chars[start]!)) start++;
  while (end > start && dotOrSpace(chars[end - 1]!)) end--;
  // By code point: no half surrogate pair.
  return chars.slice(start, Math.min(end, start + MAX_STEM)).join('').trim();
}

/**
 * The name a download is offered under: the cleaned file name (else the title) with the
 * extension of the type we detected and store (the variant's), never the one the uploader gave.
 */
export function downloadName(target: Pick<Target, 'filename' | 'title'>, variant: string): string {
  const base = target.filename.split(/[/\\]/).pop() ?? '';
  const stem = cleanName(base.replace(/\.[^.]*$/, '')) || cleanName(target.title) || 'media';
  if (variant.startsWith('original.')) return `${stem}.${variant.slice('original.'.length)}`;
  return `${stem}-${variant}`;
}

/**
 * The name a share link's download is offered under (issue 32): named after the item as the
 * visitor sees it (its title, else the uploaded file's name), never after the link's internal
 * file key (`lp-{key}.mp4`). The original is "{title}.{ext}" (the stored type's extension);
 * anything else the link gives (its preview, watermarked or not) is "{title} (preview).{ext}".
 */
export function linkDownloadName(target: Pick<Target, 'filename' | 'title'>, variant: string): string {
  const base = target.filename.split(/[/\\]/).pop() ?? '';
  const stem = cleanName(target.title) || cleanName(base.replace(/\.[^.]*$/, '')) || 'media';
  if (variant.startsWith('original.')) return `${stem}.${variant.slice('original.'.length)}`;
  const ext = /\.([a-z0-9]+)$/i.exec(variant)?.[1];
  return ext ? `${stem} (preview).${ext}` : `${stem} (preview)`;
}

/** A web stream over part of a file that reads only when the Node response has room. */
function fileStream(file: string, start: number, end: number, res: ServerResponse | null): ReadableStream<Uint8Array> {
  const stream = fs.createReadStream(file, { start, end, highWaterMark: CHUNK });
  return pacedStream(stream, res);
}

function cacheControlFor(isPublic: boolean, derivative: boolean): string {
  return isPublic ? (derivative ? `public, max-age=${YEAR}, immutable` : 'public, max-age=3600') : 'private, no-store';
}

export async function serveMediaFile(ctx: APIContext, storageKey: string | undefined, variant: string | undefined): Promise<Response> {
  // Open-captions files follow the captions' rules (captions/files.ts), never the folder's alone.
  if (!storageKey || !variant || !STORAGE_KEY_RE.test(storageKey) || !VARIANT_RE.test(variant) || CAPTION_BURN_RE.test(variant)) return errorResponse(404, 'Not found');
  const target = await findVisible(ctx, storageKey, variant);
  if (!target) return errorResponse(404, 'Not found');
  if (target === DOWNLOAD_WAITS) return errorResponse(403, DOWNLOADS_AFTER_APPROVAL_MESSAGE);
  // A private original fetched from its first byte is a download the audit log keeps (issue 56):
  // by staff or an assigned client (a player's later ranges are not).
  const auditOriginal = variant.startsWith('original.') && !target.isPublic;
  const onTransfer = async (fromStart: boolean) => {
    if (!auditOriginal || !fromStart) return;
    await audit(db, ctx.locals.user ? staffOrigin(ctx) : clientOrigin(ctx), { kind: 'download.original', object: { type: 'media', id: target.id, name: target.title }, detail: { file: variant } });
  };
  return serveStoredFile(ctx, storageKey, variant, target, { onTransfer });
}

/**
 * Whether a GET's Range header could have the answer start at byte 0 when the file's size is
 * not known here (the S3 redirect): anything but one range from a first byte above 0.
 */
export function startsAtByteZero(header: string | null): boolean {
  const spec = rangeSpec(header);
  return !spec || 'suffix' in spec || spec.first === 0;
}

export interface ServeHooks {
  /**
   * Called once before a GET's bytes are sent (or redirected to S3): `fromStart` when they begin
   * at byte 0 (share links log such transfers of downloadable files).
   */
  onTransfer?: (fromStart: boolean) => Promise<void>;
}

/**
 * Answers with one stored file whose access has been decided by the caller (the /media route
 * above, or a share link's own route): ranges, validators, downloads, S3 redirect or stream.
 */
export async function serveStoredFile(ctx: APIContext, storageKey: string, variant: string, target: Target, hooks: ServeHooks = {}): Promise<Response> {
  if (variant === VARIANTS.master && (target.only || target.captions)) {
    const subtitles = target.captions ? await subtitleRenditions(storageKey, target.captions) : [];
    if (target.only || subtitles.length) return serveMasterFor(ctx, storageKey, target.only ?? (() => true), subtitles, target.isPublic);
  }
  const derivative = !variant.startsWith('original.');
  const contentType = contentTypeForVariant(variant, target.mimeType);
  const disposition = ctx.url.searchParams.get('download') === '1' ? contentDisposition(target.downloadAs ?? downloadName(target, variant)) : null;
  const cacheControl = cacheControlFor(target.isPublic, derivative);
  if (config.MEDIA_STORAGE === 's3' && config.S3_DELIVERY === 'redirect' && ctx.request.method === 'GET') {
    const { redirectToS3 } = await import('./s3-delivery.ts');
    const redirect = await redirectToS3(storageKey, variant, { contentType, isPublic: target.isPublic, disposition, cacheControl });
    if (redirect) {
      // The bucket sends the bytes; judged by the header the browser will send it too.
      await hooks.onTransfer?.(startsAtByteZero(ctx.request.headers.get('range')));
      return redirect;
    }
  }
  const source = await storedSource(storageKey, variant);
  if (!source) return errorResponse(404, 'Not found');

  const { size, etag, lastModified } = source;
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': lastModified,
    // Derivative names are fixed per storage key and replaced posters get a new ?v= URL,
    // so public derivatives never change under their URL. Private files are never stored
    // (shared computers, proxies).
    'Cache-Control': cacheControl,
  };
  if (!target.isPublic) headers.Vary = 'Cookie';
  if (disposition) headers['Content-Disposition'] = disposition;

  const req = ctx.request.headers;
  const inm = req.get('if-none-match');
  const ims = req.get('if-modified-since');
  const notModified = inm ? etagMatches(inm, etag) : !!ims && !Number.isNaN(Date.parse(ims)) && Date.parse(lastModified) <= Date.parse(ims);
  if (notModified) return new Response(null, { status: 304, headers });

  let range = parseRange(req.get('range'), size);
  const ifRange = req.get('if-range');
  if (range && ifRange) {
    const ok = ifRange.trim().startsWith('"') || ifRange.trim().startsWith('W/') ? ifRange.trim() === etag : ifRange.trim() === lastModified;
    if (!ok) range = null;
  }
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
  }
  const head = ctx.request.method === 'HEAD';
  if (!head) await hooks.onTransfer?.(!range || range.start === 0);
  if (config.ACCEL_REDIRECT && config.MEDIA_STORAGE === 'local') return accelRedirect(storageKey, variant, headers);
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['Content-Length'] = String(range.end - range.start + 1);
    return new Response(head ? null : await source.open(range.start, range.end), { status: 206, headers });
  }
  headers['Content-Length'] = String(size);
  return new Response(head || size === 0 ? null : await source.open(0, size - 1), { status: 200, headers });
}

/** A stored file on the configured storage; the S3 SDK is loaded only where the bucket is used (issue 43). */
async function storedSource(storageKey: string, variant: string): Promise<FileSource | null> {
  return config.MEDIA_STORAGE === 's3' ? (await import('./s3-delivery.ts')).s3Source(storageKey, variant) : localSource(storageKey, variant);
}

/**
 * A version's master playlist for a viewer who may fetch only some sizes (issue 40), or one with
 * caption tracks (issue 54): the stored one without the other sizes and with the viewer's
 * subtitle renditions, made here (a few hundred bytes) rather than sent by nginx or the bucket,
 * with a validator of its own text.
 */
async function serveMasterFor(ctx: APIContext, storageKey: string, only: (variant: string) => boolean, subtitles: string[], isPublic: boolean): Promise<Response> {
  const source = await storedSource(storageKey, VARIANTS.master);
  if (!source || source.size === 0) return errorResponse(404, 'Not found');
  const text = withSubtitles(filterMaster(await new Response(await source.open(0, source.size - 1)).text(), only), subtitles);
  const headers: Record<string, string> = {
    'Content-Type': contentTypeForVariant(VARIANTS.master, ''),
    ETag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`,
    // Its subtitle renditions change with the tracks, under the same address: asked again each time.
    'Cache-Control': isPublic ? 'public, max-age=0, must-revalidate' : cacheControlFor(false, true),
  };
  if (!isPublic) headers.Vary = 'Cookie';
  const inm = ctx.request.headers.get('if-none-match');
  if (inm && etagMatches(inm, headers.ETag!)) return new Response(null, { status: 304, headers });
  headers['Content-Length'] = String(Buffer.byteLength(text));
  return new Response(ctx.request.method === 'HEAD' ? null : text, { status: 200, headers });
}

/**
 * With ACCEL_REDIRECT (issue 33): access was decided, the 304 and 416 answered above from the
 * same validators nginx computes; nginx now sends the file from its internal location (see
 * deploy/nginx/studio.conf), with its own ranges, ETag and Last-Modified. This answer carries
 * what nginx cannot know: the type, the download name, Cache-Control and Vary (nginx keeps the
 * first three across the internal redirect; the location adds Vary and the security headers
 * from this answer). Its own validators and range headers are left out: nginx writes them.
 */
function accelRedirect(storageKey: string, variant: string, headers: Record<string, string>): Response {
  const { ETag: _etag, 'Last-Modified': _lastModified, 'Accept-Ranges': _acceptRanges, ...kept } = headers;
  return new Response(null, {
    status: 200,
    headers: { ...kept, 'X-Accel-Redirect': `${config.ACCEL_REDIRECT}${storageKey}/${variant}`, 'Content-Length': '0' },
  });
}

/**
 * A local file's validators, in nginx's own form (`"<mtime seconds hex>-<size hex>"` and the
 * mtime to the second), so an answer from the app and one nginx sent with ACCEL_REDIRECT
 * agree and a browser's cached copy stays valid whichever sent it.
 */
export function localValidators(size: number, mtimeMs: number): { etag: string; lastModified: string } {
  const seconds = Math.floor(mtimeMs / 1000);
  return { etag: `"${seconds.toString(16)}-${size.toString(16)}"`, lastModified: new Date(seconds * 1000).toUTCString() };
}

/**
 * A stored file's bytes as chunks, on either driver (the gallery ZIP reads its entries through
 * this, issue 42): a local file straight from disk, 1 MB at a time (the ZIP's response paces the
 * reading); an S3 object through its body. null when there is no such file.
 */
export async function storedChunks(storageKey: string, variant: string): Promise<AsyncIterable<Uint8Array> | null> {
  if (config.MEDIA_STORAGE === 's3') {
    const source = await (await import('./s3-delivery.ts')).s3Source(storageKey, variant);
    if (!source) return null;
    return source.size ? webChunks(await source.open(0, source.size - 1)) : (async function* () {})();
  }
  const file = mediaFilePath(storageKey, variant);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return fs.createReadStream(file, { highWaterMark: CHUNK });
}

/** A web stream read as async chunks; a consumer that stops early cancels it (the object is closed). */
async function* webChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return void (finished = true);
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
}

async function localSource(storageKey: string, variant: string): Promise<FileSource | null> {
  const file = mediaFilePath(storageKey, variant);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return {
    size: stat.size,
    ...localValidators(stat.size, stat.mtimeMs),
    open: async (start, end) => fileStream(file, start, end, currentNodeResponse()),
  };
}

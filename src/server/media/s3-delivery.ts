// Serving a media file kept in S3 (issue 18), after delivery.ts has checked who may see it.
// redirect: 302 to a presigned GET that lives at most S3_URL_TTL_SECONDS (5 minutes), with the
// download name and type signed into it; the browser then talks to the bucket, ranges and all.
// proxy: the app streams the object, passing Range and conditional headers through.
// Private answers are never stored by caches; a public redirect may be kept for a minute
// (well inside the URL's life).
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { config } from '../config.ts';
import { bucket, objectKey, s3 } from '../storage/s3.ts';
import { errorResponse } from '../http.ts';

export interface S3Target {
  contentType: string;
  isPublic: boolean;
  /** Content-Disposition for ?download=1, else null. */
  disposition: string | null;
  /** Cache-Control the local driver would send for this file. */
  cacheControl: string;
}

const status = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode ?? 0;

/** Fetched by scripts (the seek-bar's WebVTT map): kept same-origin, so no CORS setup is needed on the bucket. */
const alwaysProxied = (variant: string) => variant.endsWith('.vtt');

export async function serveFromS3(request: Request, storageKey: string, variant: string, t: S3Target): Promise<Response> {
  const Key = objectKey(storageKey, variant);
  const privateHeaders: Record<string, string> = t.isPublic ? {} : { Vary: 'Cookie' };
  if (config.S3_DELIVERY === 'redirect' && request.method === 'GET' && !alwaysProxied(variant)) {
    // A missing object answers 404 here rather than an error page from the bucket.
    try {
      await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key }));
    } catch (e) {
      if (status(e) === 404) return errorResponse(404, 'Not found');
      throw e;
    }
    const url = await getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: bucket(),
        Key,
        ResponseContentType: t.contentType,
        ...(t.disposition ? { ResponseContentDisposition: t.disposition } : {}),
        ResponseCacheControl: t.isPublic ? t.cacheControl : 'private, no-store',
      }),
      { expiresIn: config.S3_URL_TTL_SECONDS },
    );
    return new Response(null, {
      status: 302,
      headers: { Location: url, 'Cache-Control': t.isPublic ? 'public, max-age=60' : 'private, no-store', ...privateHeaders },
    });
  }

  const h = request.headers;
  try {
    const res = await s3().send(
      new GetObjectCommand({
        Bucket: bucket(),
        Key,
        Range: h.get('range') ?? undefined,
        IfNoneMatch: h.get('if-none-match') ?? undefined,
        IfModifiedSince: h.get('if-modified-since') ? new Date(h.get('if-modified-since')!) : undefined,
      }),
    );
    const headers: Record<string, string> = {
      'Content-Type': t.contentType,
      'Accept-Ranges': 'bytes',
      'Cache-Control': t.cacheControl,
      ...privateHeaders,
    };
    if (res.ETag) headers.ETag = res.ETag;
    if (res.LastModified) headers['Last-Modified'] = res.LastModified.toUTCString();
    if (res.ContentLength != null) headers['Content-Length'] = String(res.ContentLength);
    if (res.ContentRange) headers['Content-Range'] = res.ContentRange;
    if (t.disposition) headers['Content-Disposition'] = t.disposition;
    const body = res.Body as (Readable & { transformToWebStream(): ReadableStream }) | undefined;
    if (request.method === 'HEAD') {
      body?.destroy();
      return new Response(null, { status: res.ContentRange ? 206 : 200, headers });
    }
    return new Response(body ? body.transformToWebStream() : null, { status: res.ContentRange ? 206 : 200, headers });
  } catch (e) {
    const code = status(e);
    if (code === 304) return new Response(null, { status: 304, headers: { 'Cache-Control': t.cacheControl, ...privateHeaders } });
    if (code === 404) return errorResponse(404, 'Not found');
    if (code === 416) return new Response(null, { status: 416, headers: { 'Cache-Control': t.cacheControl, ...privateHeaders } });
    throw e;
  }
}

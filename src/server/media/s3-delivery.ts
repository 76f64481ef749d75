// Serving a media file kept in S3 (issue 18), after delivery.ts has checked who may see it.
// redirect (S3_DELIVERY=redirect, the default): 302 to a presigned GET that lives at most
// S3_URL_TTL_SECONDS (5 minutes), with the type and download name signed into it; the
// browser then fetches from the bucket, ranges and all. proxy, and HEAD requests: the app
// streams the object itself, with the same conditional and range handling as local files.
// Private answers are never stored by caches; a public redirect may be kept for a minute,
// well inside the URL's life.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { config } from '../config.ts';
import { bucket, headObject, objectKey, s3 } from '../storage/s3.ts';
import type { FileSource } from './file-source.ts';
import { pacedStream } from './paced-stream.ts';
import { currentNodeResponse } from './node-response.ts';
import { errorResponse } from '../http.ts';

export interface RedirectTarget {
  contentType: string;
  isPublic: boolean;
  /** Content-Disposition for ?download=1, else null. */
  disposition: string | null;
  /** Cache-Control the file itself is served with. */
  cacheControl: string;
}

/**
 * Fetched by scripts (the seek bar's WebVTT map, HLS playlists): kept same-origin, so the bucket
 * needs no CORS rules, and a playlist's relative addresses keep resolving under the app (where
 * access is checked), not under the bucket.
 */
const alwaysProxied = (variant: string) => variant.endsWith('.vtt') || variant.endsWith('.m3u8');

/** The 302 to a presigned URL; null when this file is streamed instead. 404 when the object is missing. */
export async function redirectToS3(storageKey: string, variant: string, t: RedirectTarget): Promise<Response | null> {
  if (alwaysProxied(variant)) return null;
  // A missing object answers 404 here, not an error page from the bucket.
  if (!(await headObject(storageKey, variant))) return errorResponse(404, 'Not found');
  const url = await getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: objectKey(storageKey, variant),
      ResponseContentType: t.contentType,
      ...(t.disposition ? { ResponseContentDisposition: t.disposition } : {}),
      ResponseCacheControl: t.cacheControl,
    }),
    { expiresIn: config.S3_URL_TTL_SECONDS },
  );
  return new Response(null, {
    status: 302,
    headers: { Location: url, 'Cache-Control': t.isPublic ? 'public, max-age=60' : 'private, no-store', ...(t.isPublic ? {} : { Vary: 'Cookie' }) },
  });
}

export async function s3Source(storageKey: string, variant: string): Promise<FileSource | null> {
  const head = await headObject(storageKey, variant);
  if (!head || head.ContentLength == null) return null;
  const modified = head.LastModified ?? new Date(0);
  return {
    size: head.ContentLength,
    etag: head.ETag ?? `"${head.ContentLength.toString(16)}-${modified.getTime().toString(16)}"`,
    lastModified: new Date(Math.floor(modified.getTime() / 1000) * 1000).toUTCString(),
    async open(start, end) {
      const res = await s3().send(
        // IfMatch: the object read is the one the headers describe (a replaced poster is a new object).
        new GetObjectCommand({ Bucket: bucket(), Key: objectKey(storageKey, variant), Range: `bytes=${start}-${end}`, ...(head.ETag ? { IfMatch: head.ETag } : {}) }),
      );
      return pacedStream(res.Body as Readable, currentNodeResponse());
    },
  };
}

// The tus 1.0 server behind /api/uploads (creation, creation-with-upload, termination,
// expiration). @tus/server speaks the protocol and @tus/file-store keeps the bytes; this
// module adds the app's rules, checked on every request before the library sees it:
// the caller (already a staff user with upload:media, see the endpoint) must own the upload,
// Upload-Length is required and at most MEDIA_MAX_BYTES, and one user holds at most
// MAX_OPEN_UPLOADS open uploads. Library errors are re-shaped into `{ message }` JSON.
import { Server, type ServerOptions } from '@tus/server';
import { config } from '../config.ts';
import { assertDiskSpaceFor } from '../storage/disk-space.ts';
import { errorResponse } from '../http.ts';
import { formatBytes } from '../media/multipart.ts';
import { checkFileName } from '../media/file-name.ts';
import { MAX_OPEN_UPLOADS, deleteRecord, expiryMs, findOpenOwned, insertRecord } from './records.ts';
import { STAGING_DIR, UPLOAD_ID_RE, newUploadId } from './staging.ts';
import { StagingStore } from './store.ts';
import { s3UploadStore } from './s3-staging.ts';
import type { S3Store } from '@tus/s3-store';
import { startUploadSweeper, sweepExpiredUploads } from './sweep.ts';

export const UPLOADS_PATH = '/api/uploads';

export const tooLargeMessage = () => `The file is too large: the limit is ${formatBytes(config.MEDIA_MAX_BYTES)}.`;

// onUploadCreate only sees the request, so the endpoint's verified user rides along here.
const owners = new WeakMap<Request, string>();

type HookError = { status_code: number; body: string };

let server: Server | null = null;

function tusServer(): Server {
  if (server) return server;
  const options: Omit<ServerOptions, 'locker'> & { datastore: StagingStore | S3Store } = {
    path: UPLOADS_PATH,
    // Unfinished uploads wait on disk, or in the bucket with MEDIA_STORAGE=s3 (any process can continue them).
    datastore: config.MEDIA_STORAGE === 's3' ? s3UploadStore(expiryMs()) : new StagingStore({ directory: STAGING_DIR, expirationPeriodInMilliseconds: expiryMs() }),
    // Same origin only: no CORS headers at all.
    allowedOrigins: () => false,
    relativeLocation: true,
    maxSize: config.MEDIA_MAX_BYTES,
    namingFunction: () => newUploadId(),
    // The library's own reading takes the last '/' segment of the whole URL, query included,
    // while the ownership check below reads the path: both must name the same upload.
    getFileIdFromRequest: (req) => uploadIdFromUrl(req.url) || undefined,
    async onUploadCreate(req, upload) {
      const userId = owners.get(req as unknown as Request);
      if (!userId || upload.size === undefined) throw { status_code: 400, body: 'Upload-Length is required' } satisfies HookError;
      const checked = checkFileName(String(upload.metadata?.filename ?? ''));
      if ('problem' in checked) throw { status_code: 400, body: checked.problem } satisfies HookError;
      const ok = await insertRecord({ id: upload.id, userId, size: upload.size, filename: checked.name });
      if (!ok) {
        throw {
          status_code: 429,
          body: `You already have ${MAX_OPEN_UPLOADS} unfinished uploads: finish or cancel one first.`,
        } satisfies HookError;
      }
      return {};
    },
  };
  server = new Server(options as ServerOptions & { datastore: StagingStore | S3Store });
  return server;
}

// tus answers errors as short text; these say what to do about them.
const MESSAGES: Record<number, string> = {
  404: 'Upload not found',
  409: 'Upload-Offset does not match the bytes received so far: ask with HEAD and continue from there.',
  410: 'This upload has expired.',
  412: 'Tus-Resumable: 1.0.0 is required.',
};

async function asJsonError(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const text = (await res.text()).trim();
  if (res.status >= 500) console.error('tus upload error:', text);
  const message =
    res.status >= 500
      ? 'Something went wrong on our side. Please try again.'
      : res.status === 413 && /maximum size/i.test(text)
        ? tooLargeMessage()
        : (MESSAGES[res.status] ?? text) || 'Invalid upload request';
  const out = errorResponse(res.status, message);
  for (const name of ['tus-resumable', 'tus-version', 'tus-extension', 'tus-max-size', 'connection']) {
    const v = res.headers.get(name);
    if (v) out.headers.set(name, v);
  }
  return out;
}

const READ_AHEAD = 4 * 1024 * 1024;

/**
 * The library reads the body one small chunk at a time, each waiting for the previous disk
 * write, so a PATCH ran at a fifth of the network's speed. A queue of a few MB between the
 * socket and the library lets receiving run ahead of writing (bounded, with back-pressure).
 */
function withReadAhead(request: Request): Request {
  if (!request.body) return request;
  const buffered = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>(undefined, new ByteLengthQueuingStrategy({ highWaterMark: READ_AHEAD })),
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body: buffered, duplex: 'half' } as RequestInit);
}

/** The upload id a URL names, from its path alone ('' for the collection itself). */
export function uploadIdFromUrl(url: string): string {
  return new URL(url, 'http://x').pathname.slice(UPLOADS_PATH.length).replace(/^\/+|\/+$/g, '');
}

/** Handles one request to /api/uploads[/<id>] for `userId` (a staff user with upload:media). */
export async function handleUploadRequest(request: Request, userId: string): Promise<Response> {
  startUploadSweeper();
  // tus takes no query parameters; one could only make the id read ambiguous.
  if (new URL(request.url).search) return errorResponse(400, 'Upload addresses take no query string.');
  const rest = uploadIdFromUrl(request.url);
  const method = request.method.toUpperCase();

  if (method === 'POST') {
    if (rest) return errorResponse(404, 'Upload not found');
    const length = request.headers.get('upload-length');
    if (length === null || request.headers.get('upload-defer-length') !== null) {
      return errorResponse(400, 'Upload-Length is required: the size must be known when the upload starts.');
    }
    if (!/^\d{1,16}$/.test(length)) return errorResponse(400, 'Upload-Length must be a whole number of bytes.');
    if (Number(length) > config.MEDIA_MAX_BYTES) return errorResponse(413, tooLargeMessage());
    // The whole file must fit (with the margin) before the first byte is staged.
    await assertDiskSpaceFor(Number(length));
    // Expired uploads must not count against the limit of open ones.
    await sweepExpiredUploads();
  } else if (method === 'HEAD' || method === 'PATCH' || method === 'DELETE') {
    // Another user's upload, a finished or an expired one: all simply "not found".
    if (!UPLOAD_ID_RE.test(rest) || !(await findOpenOwned(rest, userId))) return errorResponse(404, 'Upload not found');
  } else if (method !== 'OPTIONS') {
    const res = errorResponse(405, 'Method not allowed');
    res.headers.set('Allow', 'OPTIONS, POST, HEAD, PATCH, DELETE');
    return res;
  }

  const forTus = withReadAhead(request);
  if (method === 'POST') owners.set(forTus, userId);
  const res = await tusServer().handleWeb(forTus as Parameters<Server['handleWeb']>[0]);
  if (method === 'DELETE' && res.status === 204) await deleteRecord(rest);
  return asJsonError(res);
}

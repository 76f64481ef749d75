// Finishing: POST /api/media with { uploadId, ...fields } turns a complete resumable upload
// into a media item through the same ingestOriginal step as the multipart path (type from
// the first bytes, derivatives, field validation), moving the staged bytes by rename.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { HttpError, describeZodError, readJson } from '../http.ts';
import { detectType, SNIFF_BYTES } from '../media/detect.ts';
import { ingestOriginal, type IncomingOriginal } from '../media/library.ts';
import { assertMayPublish, type Uploader } from '../media/publish-rule.ts';
import { newStorageKey } from '../storage/paths.ts';
import { mediaFinishSchema, type AdminMedia } from '../../shared/schemas/media.ts';
import { claimRecord, deleteRecord, getRecord, releaseRecord, setMediaId } from './records.ts';
import { bringStagedHere, dropStaged, removeStaged, stagedFile, stagedSize } from './staging.ts';

export const UNSUPPORTED_TYPE =
  'Unsupported file type: upload a JPG, PNG, GIF or WebP image, or an MP4, MOV, AVI, MKV or WebM video.';

async function readHead(file: string): Promise<Uint8Array> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function finishUpload(request: Request, uploader: Uploader): Promise<AdminMedia> {
  const body = await readJson(request, z.record(z.string(), z.unknown()));
  // JSON without an upload to finish is not a way to send a file: same 415 as before.
  if (!('uploadId' in body)) {
    throw new HttpError(415, 'Send the file as multipart/form-data, or finish a resumable upload with JSON { "uploadId": ... }.');
  }
  const parsed = mediaFinishSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, describeZodError(parsed.error));
  const { uploadId, ...fields } = parsed.data;
  // Before the upload is touched, so it can still be finished without the flags.
  assertMayPublish(fields, uploader);
  return finishInto(uploadId, uploader.id, (file) => ingestOriginal(newStorageKey(), file, null, fields, uploader.id), (item) => item.id);
}

/**
 * Takes a complete resumable upload of `userId` and hands its bytes (typed by their first
 * bytes) to `use`, which turns them into a media item or a new version of one. 404 for
 * someone else's, expired or unknown upload, 409 for an incomplete or finished one, 415 when
 * the type is not supported (the bytes are then dropped).
 */
export async function finishInto<T>(
  uploadId: string,
  userId: string,
  use: (file: IncomingOriginal) => Promise<T>,
  mediaIdOf: (result: T) => number,
): Promise<T> {
  const rec = await getRecord(uploadId);
  if (!rec || rec.userId !== userId || rec.expiresAt.getTime() <= Date.now()) throw new HttpError(404, 'Upload not found');
  if (rec.finishedAt) throw new HttpError(409, 'This upload has already been finished.');
  const received = await stagedSize(uploadId);
  if (received === null) throw new HttpError(404, 'Upload not found');
  if (received < rec.size) {
    throw new HttpError(409, `The upload is not complete yet: ${received} of ${rec.size} bytes received.`);
  }
  // From here on a second finishing call (even a concurrent one) sees it finished.
  if (!(await claimRecord(uploadId))) throw new HttpError(409, 'This upload has already been finished.');

  const path = stagedFile(uploadId);
  try {
    await bringStagedHere(uploadId);
  } catch (e) {
    await releaseRecord(uploadId);
    throw e;
  }
  const type = detectType(await readHead(path));
  if (!type) {
    // Like a rejected multipart upload: nothing is kept.
    await removeStaged(uploadId);
    await deleteRecord(uploadId);
    throw new HttpError(415, UNSUPPORTED_TYPE);
  }

  let result: T;
  try {
    result = await use({ path, size: received, type, filename: rec.filename });
  } catch (e) {
    // Bytes still staged (e.g. an unknown client): the user may correct the fields and retry.
    if ((await stagedSize(uploadId)) !== null) await releaseRecord(uploadId);
    else {
      await removeStaged(uploadId);
      await deleteRecord(uploadId);
    }
    throw e;
  }
  await dropStaged(uploadId);
  await setMediaId(uploadId, mediaIdOf(result));
  return result;
}

// Streaming multipart/form-data receiver: files go straight from the request body to disk
// (busboy, with back-pressure), never into memory. Each file is checked by its first bytes
// and counted as it arrives; a rejected file is drained, not stored, so the client still
// gets a clean answer. The caller owns the folder and removes it on any error.
import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { once } from 'node:events';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { HttpError } from '../http.ts';
import { detectType, SNIFF_BYTES, type DetectedType } from './detect.ts';
import { checkFileName } from './file-name.ts';
import { RELEASE_EVERY_BYTES, releaseGarbage } from './memory.ts';

export interface FileFieldSpec {
  maxBytes: number;
  accept: (type: DetectedType) => boolean;
  tooLarge: string;
  unsupported: string;
  /** Where to write the file (a scratch path inside the item's folder). */
  tempPath: () => string;
}

export interface ReceivedFile {
  path: string;
  size: number;
  type: DetectedType;
  filename: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  files: Record<string, ReceivedFile | undefined>;
}

const FIELD_MAX_BYTES = 64 * 1024;
// Buffers between the stages (socket → parser → file). With Node's 16 KB defaults every
// chunk waits for the previous disk write, and throughput becomes chunk size / latency;
// a few MB in flight lets receiving and writing overlap, still bounded.
const STAGE_BUFFER = 1024 * 1024;
const DISK_BUFFER = 4 * 1024 * 1024;
const FORM_OVERHEAD = 1024 * 1024;

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get('content-type') ?? '');
}

async function writeAll(out: WriteStream, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function closeStream(out: WriteStream): Promise<void> {
  if (out.closed) return;
  const closed = once(out, 'close');
  out.end();
  await closed;
}

export async function receiveMultipart(request: Request, specs: Record<string, FileFieldSpec>): Promise<ReceivedForm> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new HttpError(415, 'Content-Type must be multipart/form-data');
  if (!request.body) throw new HttpError(400, 'The request has no body');

  const totalLimit = Object.values(specs).reduce((n, s) => n + s.maxBytes, 0) + FORM_OVERHEAD;
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > totalLimit) {
    // Answer without reading the body; Node discards whatever the client still sends.
    const main = Object.values(specs)[0];
    throw new HttpError(413, main?.tooLarge ?? 'The upload is too large');
  }

  const fields: Record<string, string> = {};
  const files: Record<string, ReceivedFile | undefined> = {};
  const written: string[] = [];
  const seen = new Set<string>();
  const work: Promise<void>[] = [];
  let firstError: unknown = null;
  const fail = (e: unknown) => {
    firstError ??= e;
  };

  const bb = busboy({
    headers: { 'content-type': contentType },
    // Browsers send file names as raw UTF-8.
    defParamCharset: 'utf8',
    highWaterMark: STAGE_BUFFER,
    fileHwm: STAGE_BUFFER,
    limits: { fieldSize: FIELD_MAX_BYTES, fields: 40, files: 4, parts: 50 },
  });

  bb.on('field', (name, value, info) => {
    if (info.valueTruncated) fail(new HttpError(400, `${name}: is too long`));
    else fields[name] = value;
  });
  for (const ev of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
    bb.on(ev, () => fail(new HttpError(400, 'The form has too many fields')));
  }

  bb.on('file', (name, stream, info) => {
    const spec = specs[name];
    // Judged before a byte is stored: a name that breaks the text rules refuses the form.
    const checked = spec && !seen.has(name) && !firstError ? checkFileName(info.filename) : null;
    if (checked && 'problem' in checked) fail(new HttpError(400, `${name}: ${checked.problem}`));
    if (!checked || 'problem' in checked) {
      stream.on('error', () => {}); // a torn-down upload errors this part too
      stream.resume(); // not ours, a duplicate, a bad name, or already failed: drain and ignore
      return;
    }
    const filename = checked.name || 'upload';
    seen.add(name);
    work.push(
      (async () => {
        let head = Buffer.alloc(0);
        let out: WriteStream | null = null;
        let type: DetectedType | null = null;
        let size = 0;
        let rejected = false;
        const target = spec.tempPath();
        const start = async () => {
          type = detectType(head);
          if (!type || !spec.accept(type)) throw new HttpError(415, spec.unsupported);
          written.push(target);
          out = createWriteStream(target, { flags: 'wx', highWaterMark: DISK_BUFFER });
          // Always listened to: a write still queued when the upload is torn down fails
          // after destroy(), and an unheard 'error' would take the whole process down.
          out.on('error', fail);
          await writeAll(out, head);
        };
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            if (rejected) continue; // drain what is left of this part
            try {
              size += chunk.length;
              if (size > spec.maxBytes) throw new HttpError(413, spec.tooLarge);
              if (out) {
                await writeAll(out, chunk);
              } else {
                head = Buffer.concat([head, chunk]);
                if (head.length >= SNIFF_BYTES) await start();
              }
            } catch (e) {
              rejected = true;
              fail(e);
              if (out) await closeStream(out).catch(() => {});
            }
          }
          if (rejected) return;
          if (!out && head.length > 0) await start();
          if (out) {
            await closeStream(out);
            files[name] = { path: target, size, type: type!, filename };
          }
        } catch (e) {
          fail(e);
          const o = out as WriteStream | null;
          if (o) o.destroy();
        }
      })(),
    );
  });

  // Counts the whole body so a chunked request cannot stream forever.
  let total = 0;
  let sinceRelease = 0;
  const counter = new Transform({
    highWaterMark: STAGE_BUFFER,
    transform(chunk: Buffer, _enc, cb) {
      total += chunk.length;
      sinceRelease += chunk.length;
      if (sinceRelease >= RELEASE_EVERY_BYTES) {
        sinceRelease = 0;
        releaseGarbage();
      }
      if (total > totalLimit) cb(new HttpError(413, Object.values(specs)[0]?.tooLarge ?? 'The upload is too large'));
      else cb(null, chunk);
    },
  });

  const source = Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>, { highWaterMark: STAGE_BUFFER });
  const onAbort = () => source.destroy(new HttpError(400, 'The upload was interrupted'));
  request.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await pipeline(source, counter, bb);
  } catch (e) {
    fail(e instanceof HttpError ? e : new HttpError(400, 'The upload was interrupted or the form is malformed'));
  } finally {
    request.signal?.removeEventListener('abort', onAbort);
  }
  await Promise.allSettled(work);
  if (firstError) {
    await Promise.all(written.map((p) => fs.rm(p, { force: true })));
    throw firstError;
  }
  return { fields, files };
}

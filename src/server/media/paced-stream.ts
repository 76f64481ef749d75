// Streaming a file's bytes to an HTTP response at the client's pace (used for local files and
// for S3 objects in proxy mode).
import type { ServerResponse } from 'node:http';
import { RELEASE_EVERY_BYTES, releaseGarbage } from './memory.ts';

// Large reads: the per-chunk cost of the web-stream hand-off dominates, not the disk.
export const CHUNK = 1024 * 1024;
const SOCKET_QUEUE = 4 * CHUNK;

/**
 * A web stream over a Node stream (a file, or an S3 object's body) that reads only when the
 * Node response has room: up to SOCKET_QUEUE bytes may wait in the response's buffer, so the
 * read of the next chunk overlaps the sending of the previous ones; beyond that it waits for
 * 'drain', so a slow client never makes the server hold the file in memory.
 */
export function pacedStream(stream: NodeJS.ReadableStream & { destroy(): void }, res: ServerResponse | null): ReadableStream<Uint8Array> {
  return pacedChunks(stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>, res, () => stream.destroy());
}

/**
 * The same pacing over any source of chunks (a ZIP being written, issue 42): the next chunk is
 * asked for only when the response has room; `cancel` runs when the client goes away.
 */
export function pacedChunks(chunks: AsyncIterator<Uint8Array>, res: ServerResponse | null, cancel: () => void): ReadableStream<Uint8Array> {
  let sinceRelease = 0;
  const roomToWrite = () =>
    new Promise<void>((resolve) => {
      if (!res || res.writableLength < SOCKET_QUEUE || res.destroyed) return resolve();
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await roomToWrite();
        const { value, done } = await chunks.next();
        if (done) return controller.close();
        sinceRelease += value.byteLength;
        if (sinceRelease >= RELEASE_EVERY_BYTES) {
          sinceRelease = 0;
          releaseGarbage(); // chunks already sent are garbage; see memory.ts
        }
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel() {
        cancel();
      },
    },
    { highWaterMark: 0 },
  );
}

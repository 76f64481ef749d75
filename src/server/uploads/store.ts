// @tus/file-store with the write path tuned like the multipart receiver
// (src/server/media/multipart.ts): the stock write stream buffers 16 KB, so every chunk waits
// for the previous disk write and a 1 GB upload runs at a fraction of the network's speed.
// A few MB in flight lets receiving and writing overlap (still bounded, with back-pressure),
// and written chunks are released early so memory stays flat. Everything else (offsets from
// the file size, the .json record, expiry) is the library's.
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { RELEASE_EVERY_BYTES, releaseGarbage } from '../media/memory.ts';
import { stagedFile } from './staging.ts';

const DISK_BUFFER = 4 * 1024 * 1024;

export class StagingStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let received = 0;
    let sinceRelease = 0;
    const count = new Transform({
      highWaterMark: DISK_BUFFER,
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        sinceRelease += chunk.length;
        if (sinceRelease >= RELEASE_EVERY_BYTES) {
          sinceRelease = 0;
          releaseGarbage();
        }
        done(null, chunk);
      },
    });
    const out = fs.createWriteStream(stagedFile(id), { flags: 'r+', start: offset, highWaterMark: DISK_BUFFER });
    // Bytes that reached the file count even when the client hangs up half-way: the
    // offset tus reports next is the file's size, so nothing is lost or double-counted.
    await pipeline(readable, count, out);
    return offset + received;
  }
}

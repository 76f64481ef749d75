// A ZIP writer that streams (issue 42): each entry's header, its bytes as they are read, then a
// data descriptor with the CRC-32 (node:zlib) and size, so nothing is known or held in advance
// and no temporary file of the archive is ever written. Entries are stored, not deflated:
// photographs are compressed already, and storing keeps the download at disk speed. ZIP64
// records are added when the archive passes 4 GiB or 65,535 entries.
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the archive, "/"-separated, no "." or ".." segments. */
  name: string;
  mtime: Date;
  /** The entry's bytes, opened when its turn comes (before its header is written). */
  open(): Promise<AsyncIterable<Uint8Array>>;
}

const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const VERSION = 20;
const VERSION_ZIP64 = 45;
/** "Made by" Unix (3), so the permission bits below are read. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
const FILE_MODE = 0o100644;

/** MS-DOS date and time (2-second steps, 1980-2107), from the instant's UTC fields. */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * An entry name no extracting tool can read as leaving its folder: as written, and as tools that
 * fold compatibility forms first read it (NFKC, or Windows' best-fit code pages, where fullwidth
 * `．．／` is `../`; issue 51). The names given (cleanName) never hold such forms; this is the
 * last check.
 */
export function assertEntryName(name: string): void {
  for (const form of [name, name.normalize('NFKC')]) {
    if (!form || form.startsWith('/') || form.includes('\\') || form.split('/').some((p) => p === '' || p === '.' || p === '..')) {
      throw new Error(`Unsafe ZIP entry name: ${JSON.stringify(name)}`);
    }
  }
}

/** The archive's bytes, in order; the caller paces reading (the HTTP response's back-pressure). */
export async function* zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for await (const entry of entries) {
    assertEntryName(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const { time, date } = dosDateTime(entry.mtime);
    const body = await entry.open();
    const at = offset;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    // CRC and sizes are 0 here: they are in the data descriptor (bit 3).
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    yield Buffer.concat([local, name]);
    offset += local.length + name.length;

    let crc = 0;
    let size = 0;
    for await (const chunk of body) {
      crc = crc32(chunk, crc);
      size += chunk.byteLength;
      yield chunk;
    }
    offset += size;

    const big = size >= MAX32;
    const dd = Buffer.alloc(big ? 24 : 16);
    dd.writeUInt32LE(0x08074b50, 0);
    dd.writeUInt32LE(crc >>> 0, 4);
    if (big) {
      dd.writeBigUInt64LE(BigInt(size), 8);
      dd.writeBigUInt64LE(BigInt(size), 16);
    } else {
      dd.writeUInt32LE(size, 8);
      dd.writeUInt32LE(size, 12);
    }
    yield dd;
    offset += dd.length;

    // ZIP64 extra: only the fields whose 32-bit slot says 0xFFFFFFFF, in the spec's order.
    const far = at >= MAX32;
    const extraFields: bigint[] = [...(big ? [BigInt(size), BigInt(size)] : []), ...(far ? [BigInt(at)] : [])];
    const extra = Buffer.alloc(extraFields.length ? 4 + 8 * extraFields.length : 0);
    if (extraFields.length) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8 * extraFields.length, 2);
      extraFields.forEach((v, i) => extra.writeBigUInt64LE(v, 4 + 8 * i));
    }
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(MADE_BY, 4);
    cd.writeUInt16LE(extraFields.length ? VERSION_ZIP64 : VERSION, 6);
    cd.writeUInt16LE(FLAGS, 8);
    cd.writeUInt16LE(0, 10);
    cd.writeUInt16LE(time, 12);
    cd.writeUInt16LE(date, 14);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(big ? MAX32 : size, 20);
    cd.writeUInt32LE(big ? MAX32 : size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt16LE(extra.length, 30);
    cd.writeUInt16LE(0, 32); // comment
    cd.writeUInt16LE(0, 34); // disk
    cd.writeUInt16LE(0, 36); // internal attributes
    cd.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
    cd.writeUInt32LE(far ? MAX32 : at, 42);
    central.push(Buffer.concat([cd, name, extra]));
    count++;
  }

  const cdStart = offset;
  let cdSize = 0;
  for (const record of central) {
    cdSize += record.length;
    yield record;
  }
  offset += cdSize;

  const zip64 = count >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
  const tail: Buffer[] = [];
  if (zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE(MADE_BY, 12);
    rec.writeUInt16LE(VERSION_ZIP64, 14);
    rec.writeUInt32LE(0, 16);
    rec.writeUInt32LE(0, 20);
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(cdSize), 40);
    rec.writeBigUInt64LE(BigInt(cdStart), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(offset), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(rec, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(cdSize, MAX32), 12);
  end.writeUInt32LE(Math.min(cdStart, MAX32), 16);
  tail.push(end);
  yield Buffer.concat(tail);
}

// The EXIF facts a gallery shows and sorts by (issue 42): capture time, camera and lens, read
// from the raw EXIF block sharp hands over (a TIFF structure), without decoding any pixels or
// starting another process. RAW files get theirs from exiftool instead (media/raw.ts).
import { studioWallTime } from './expiry.ts';

export interface StillFacts {
  capturedAt: Date | null;
  camera: string | null;
  lens: string | null;
}

const TAG = {
  make: 0x010f,
  model: 0x0110,
  exifIfd: 0x8769,
  dateTimeOriginal: 0x9003,
  offsetTimeOriginal: 0x9011,
  subSecTimeOriginal: 0x9291,
  lensMake: 0xa433,
  lensModel: 0xa434,
} as const;

type Entries = Map<number, { type: number; count: number; valueOffset: number }>;

/** The EXIF block of a JPEG APP1 starts with "Exif\0\0"; sharp's metadata().exif keeps it. */
function tiffStart(buf: Buffer): number {
  return buf.length >= 6 && buf.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0;
}

function readIfd(buf: Buffer, base: number, offset: number, le: boolean): Entries {
  const entries: Entries = new Map();
  const at = base + offset;
  if (at + 2 > buf.length) return entries;
  const n = le ? buf.readUInt16LE(at) : buf.readUInt16BE(at);
  for (let i = 0; i < Math.min(n, 512); i++) {
    const e = at + 2 + i * 12;
    if (e + 12 > buf.length) break;
    const tag = le ? buf.readUInt16LE(e) : buf.readUInt16BE(e);
    const type = le ? buf.readUInt16LE(e + 2) : buf.readUInt16BE(e + 2);
    const count = le ? buf.readUInt32LE(e + 4) : buf.readUInt32BE(e + 4);
    entries.set(tag, { type, count, valueOffset: e + 8 });
  }
  return entries;
}

function ascii(buf: Buffer, base: number, entries: Entries, tag: number, le: boolean): string | null {
  const e = entries.get(tag);
  if (!e || e.type !== 2 || e.count === 0 || e.count > 1024) return null;
  const at = e.count <= 4 ? e.valueOffset : base + (le ? buf.readUInt32LE(e.valueOffset) : buf.readUInt32BE(e.valueOffset));
  if (at + e.count > buf.length) return null;
  // Printable text only: a camera's name is shown in the gallery.
  const text = buf
    .toString('latin1', at, at + e.count)
    .replace(/\0[\s\S]*$/, '')
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '')
    .trim();
  return text || null;
}

/** "2026:03:01 10:11:12" (+ ".45" and "+01:00" when the camera wrote them) as an instant; none: null. */
export function exifDate(value: string | null, subSec: string | null, offset: string | null): Date | null {
  const m = value && /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!m || m[1] === '0000') return null;
  const ms = subSec && /^\d+$/.test(subSec) ? Number(subSec.slice(0, 3).padEnd(3, '0')) : 0;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (Number.isNaN(wall)) return null;
  const zone = offset && /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  // Without an offset the camera's clock is read as the studio's zone (UK time).
  if (!zone) return studioWallTime(wall);
  const sign = zone[1] === '-' ? -1 : 1;
  return new Date(wall - sign * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000);
}

/** "Canon EOS R5" from make "Canon" and model "Canon EOS R5" (cameras repeat the make). */
export function cameraName(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make) return model;
  const brand = make.split(/\s+/)[0]!.toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}

export function readExif(block: Buffer | undefined | null): StillFacts {
  const none: StillFacts = { capturedAt: null, camera: null, lens: null };
  if (!block || block.length < 14) return none;
  try {
    const base = tiffStart(block);
    const order = block.toString('latin1', base, base + 2);
    if (order !== 'II' && order !== 'MM') return none;
    const le = order === 'II';
    const first = le ? block.readUInt32LE(base + 4) : block.readUInt32BE(base + 4);
    const ifd0 = readIfd(block, base, first, le);
    const exifPtr = ifd0.get(TAG.exifIfd);
    const exif = exifPtr ? readIfd(block, base, le ? block.readUInt32LE(exifPtr.valueOffset) : block.readUInt32BE(exifPtr.valueOffset), le) : new Map();
    const get = (entries: Entries, tag: number) => ascii(block, base, entries, tag, le);
    const lens = get(exif, TAG.lensModel);
    return {
      capturedAt: exifDate(get(exif, TAG.dateTimeOriginal), get(exif, TAG.subSecTimeOriginal), get(exif, TAG.offsetTimeOriginal)),
      camera: cameraName(get(ifd0, TAG.make), get(ifd0, TAG.model)),
      lens: lens && get(exif, TAG.lensMake) && !lens.toLowerCase().startsWith(get(exif, TAG.lensMake)!.split(/\s+/)[0]!.toLowerCase()) ? `${get(exif, TAG.lensMake)} ${lens}` : lens,
    };
  } catch {
    return none;
  }
}

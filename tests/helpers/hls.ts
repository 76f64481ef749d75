// A small reader of the HLS playlists the app writes (issue 33), for tests: written from RFC 8216
// (section 4.3), not from our own writer, so a playlist our writer gets wrong fails here.
import fs from 'node:fs';

export interface MasterEntry {
  bandwidth: number;
  averageBandwidth: number | null;
  resolution: [number, number];
  codecs: string;
  uri: string;
}

export interface MediaSegment {
  seconds: number;
  length: number;
  offset: number;
  uri: string;
}

export interface MediaPlaylist {
  version: number;
  targetDuration: number;
  vod: boolean;
  ended: boolean;
  map: { uri: string; length: number; offset: number };
  segments: MediaSegment[];
}

function attributes(list: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) out[m[1]!] = m[2]!.replace(/^"|"$/g, '');
  return out;
}

function lines(text: string): string[] {
  const all = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (all[0] !== '#EXTM3U') throw new Error('not a playlist: the first line is not #EXTM3U');
  return all;
}

export function parseMaster(text: string): MasterEntry[] {
  const all = lines(text);
  const out: MasterEntry[] = [];
  for (let i = 0; i < all.length; i++) {
    if (!all[i]!.startsWith('#EXT-X-STREAM-INF:')) continue;
    const a = attributes(all[i]!.slice('#EXT-X-STREAM-INF:'.length));
    const uri = all[i + 1];
    if (!uri || uri.startsWith('#')) throw new Error('EXT-X-STREAM-INF without a URI line');
    const [w, h] = (a.RESOLUTION ?? '').split('x').map(Number);
    if (!a.BANDWIDTH) throw new Error('EXT-X-STREAM-INF without BANDWIDTH');
    out.push({ bandwidth: Number(a.BANDWIDTH), averageBandwidth: a['AVERAGE-BANDWIDTH'] ? Number(a['AVERAGE-BANDWIDTH']) : null, resolution: [w!, h!], codecs: a.CODECS ?? '', uri });
  }
  return out;
}

/** A media playlist; byte ranges without an offset continue from the previous range (4.3.2.2). */
export function parseMedia(text: string): MediaPlaylist {
  const all = lines(text);
  const tag = (name: string) => all.find((l) => l.startsWith(`#${name}:`))?.slice(name.length + 2);
  const mapTag = tag('EXT-X-MAP');
  if (!mapTag) throw new Error('no EXT-X-MAP (fragmented MP4 needs its init section)');
  const mapAttrs = attributes(mapTag);
  const [mapLength, mapOffset] = (mapAttrs.BYTERANGE ?? '').split('@').map(Number);
  const segments: MediaSegment[] = [];
  let seconds: number | null = null;
  let range: { length: number; offset: number | null } | null = null;
  let next = 0;
  for (const l of all) {
    if (l.startsWith('#EXTINF:')) seconds = parseFloat(l.slice(8));
    else if (l.startsWith('#EXT-X-BYTERANGE:')) {
      const [n, o] = l.slice(17).split('@');
      range = { length: Number(n), offset: o === undefined ? null : Number(o) };
    } else if (!l.startsWith('#')) {
      if (seconds == null || !range) throw new Error(`segment ${l} without EXTINF or BYTERANGE`);
      const offset = range.offset ?? next;
      segments.push({ seconds, length: range.length, offset, uri: l });
      next = offset + range.length;
      seconds = null;
      range = null;
    }
  }
  return {
    version: Number(tag('EXT-X-VERSION')),
    targetDuration: Number(tag('EXT-X-TARGETDURATION')),
    vod: tag('EXT-X-PLAYLIST-TYPE') === 'VOD',
    ended: all.includes('#EXT-X-ENDLIST'),
    map: { uri: mapAttrs.URI ?? '', length: mapLength!, offset: mapOffset ?? 0 },
    segments,
  };
}

/** The four-letter type of the MP4 box starting at `offset` of `file`. */
export function boxAt(file: string, offset: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const b = Buffer.alloc(8);
    fs.readSync(fd, b, 0, 8, offset);
    return b.toString('latin1', 4, 8);
  } finally {
    fs.closeSync(fd);
  }
}

/** The top-level MP4 boxes of `file` in order, read from their headers (ISO 14496-12, 4.2). */
export function topLevelBoxes(file: string): { type: string; start: number; size: number }[] {
  const data = fs.readFileSync(file);
  const boxes: { type: string; start: number; size: number }[] = [];
  for (let at = 0; at + 8 <= data.length; ) {
    let size = data.readUInt32BE(at);
    if (size === 1) size = Number(data.readBigUInt64BE(at + 8));
    else if (size === 0) size = data.length - at;
    if (size < 8 || at + size > data.length) throw new Error(`${file}: a box at byte ${at} runs past the end`);
    boxes.push({ type: data.toString('latin1', at + 4, at + 8), start: at, size });
    at += size;
  }
  return boxes;
}

// HLS from the proxies themselves (issue 33). Each proxy is written once as fragmented MP4
// (moov first, a global sidx, then one moof+mdat per 2 s keyframe interval): browsers play
// the file progressively as before, and an HLS media playlist describes the same bytes as an
// init range (ftyp+moov) and one byte range per fragment. Nothing is copied: the playlists
// are a few kB beside files of many MB.
import fs from 'node:fs/promises';

/** The ffmpeg -movflags that make such a file. */
export const FRAGMENTED_MOVFLAGS = '+frag_keyframe+empty_moov+default_base_moof+global_sidx';

export interface Segment {
  offset: number;
  length: number;
  seconds: number;
}

export interface FragmentIndex {
  /** ftyp+moov: bytes [0, initLength). */
  initLength: number;
  segments: Segment[];
  /** RFC 6381 codecs, e.g. `avc1.64001f,mp4a.40.2`. */
  codecs: string;
  size: number;
}

interface Box {
  type: string;
  start: number;
  size: number;
  header: number;
}

async function topLevelBoxes(file: fs.FileHandle, size: number): Promise<Box[]> {
  const boxes: Box[] = [];
  const buf = Buffer.alloc(16);
  for (let at = 0; at + 8 <= size; ) {
    await file.read(buf, 0, 16, at);
    let boxSize = buf.readUInt32BE(0);
    let header = 8;
    if (boxSize === 1) {
      boxSize = Number(buf.readBigUInt64BE(8));
      header = 16;
    } else if (boxSize === 0) boxSize = size - at;
    if (boxSize < header || at + boxSize > size) throw new Error(`damaged MP4 box at byte ${at}`);
    boxes.push({ type: buf.toString('latin1', 4, 8), start: at, size: boxSize, header });
    at += boxSize;
  }
  return boxes;
}

/** Child boxes of a container held in `data` from `from` to `to`. */
function children(data: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = data.readUInt32BE(at);
    if (size < 8 || at + size > to) break;
    out.push({ type: data.toString('latin1', at + 4, at + 8), start: at, size, header: 8 });
    at += size;
  }
  return out;
}

const find = (data: Buffer, box: Box, type: string) => children(data, box.start + box.header, box.start + box.size).find((b) => b.type === type);

/** The video track's id and timescale, and the codecs string, from the moov box. */
function readMoov(moov: Buffer): { videoTrack: number; codecs: string } {
  let videoTrack = 0;
  let hasAudio = false;
  for (const trak of children(moov, 8, moov.length).filter((b) => b.type === 'trak')) {
    const tkhd = find(moov, trak, 'tkhd');
    const mdia = find(moov, trak, 'mdia');
    const hdlr = mdia && find(moov, mdia, 'hdlr');
    if (!tkhd || !hdlr) continue;
    const handler = moov.toString('latin1', hdlr.start + 16, hdlr.start + 20);
    const version = moov[tkhd.start + 8]!;
    const id = moov.readUInt32BE(tkhd.start + 8 + 4 + (version === 1 ? 16 : 8));
    if (handler === 'vide' && !videoTrack) videoTrack = id;
    if (handler === 'soun') hasAudio = true;
  }
  const avcC = moov.indexOf('avcC', 0, 'latin1');
  if (!videoTrack || avcC < 0) throw new Error('no H.264 video track in the proxy');
  const avc = `avc1.${moov.subarray(avcC + 5, avcC + 8).toString('hex')}`;
  // Our proxies' audio is AAC-LC (encoded, or copied by a remux that only takes AAC).
  return { videoTrack, codecs: hasAudio ? `${avc},mp4a.40.2` : avc };
}

interface Sidx {
  referenceId: number;
  timescale: number;
  /** Where the first referenced byte is. */
  firstByte: number;
  refs: { size: number; duration: number }[];
}

function readSidx(data: Buffer, boxStart: number): Sidx {
  const version = data[8]!;
  const referenceId = data.readUInt32BE(12);
  const timescale = data.readUInt32BE(16);
  let at = 20;
  let firstOffset: number;
  if (version === 0) {
    firstOffset = data.readUInt32BE(at + 4);
    at += 8;
  } else {
    firstOffset = Number(data.readBigUInt64BE(at + 8));
    at += 16;
  }
  const count = data.readUInt16BE(at + 2);
  at += 4;
  const refs: Sidx['refs'] = [];
  for (let i = 0; i < count; i++, at += 12) refs.push({ size: data.readUInt32BE(at) & 0x7fffffff, duration: data.readUInt32BE(at + 4) });
  return { referenceId, timescale, firstByte: boxStart + data.length + firstOffset, refs };
}

/**
 * Reads a fragmented proxy's layout: its init range and each fragment's bytes (starting at its
 * moof) and duration (the video track's sidx). Throws when the file is not laid out so.
 */
export async function fragmentIndex(path: string): Promise<FragmentIndex> {
  const file = await fs.open(path, 'r');
  try {
    const { size } = await file.stat();
    const boxes = await topLevelBoxes(file, size);
    const read = async (b: Box) => {
      const buf = Buffer.alloc(b.size);
      await file.read(buf, 0, b.size, b.start);
      return buf;
    };
    const moovBox = boxes.find((b) => b.type === 'moov');
    const firstMoof = boxes.findIndex((b) => b.type === 'moof');
    if (!moovBox || firstMoof < 0 || boxes[0]?.type !== 'ftyp' || boxes[1] !== moovBox) throw new Error('the proxy is not a fragmented MP4 with its moov first');
    const { videoTrack, codecs } = readMoov(await read(moovBox));
    const sidxBox = boxes.filter((b) => b.type === 'sidx');
    const sidxes = await Promise.all(sidxBox.map(async (b) => readSidx(await read(b), b.start)));
    const sidx = sidxes.find((s) => s.referenceId === videoTrack);
    if (!sidx) throw new Error('the proxy has no index (sidx) for its video track');
    const segments: Segment[] = [];
    let at = sidx.firstByte;
    for (const ref of sidx.refs) {
      const moof = boxes.find((b) => b.start === at);
      if (moof?.type !== 'moof') throw new Error(`the index points at byte ${at}, which is not a moof box`);
      segments.push({ offset: at, length: ref.size, seconds: ref.duration / sidx.timescale });
      at += ref.size;
    }
    if (!segments.length) throw new Error('the proxy has no fragments');
    return { initLength: moovBox.start + moovBox.size, segments, codecs, size };
  } finally {
    await file.close();
  }
}

const seconds = (s: number) => s.toFixed(6);

/** The media playlist of one proxy; `uri` is the proxy's address relative to the playlist (`720p.mp4?v=12`). */
export function mediaPlaylist(index: FragmentIndex, uri: string): string {
  const target = Math.max(1, Math.ceil(Math.max(...index.segments.map((s) => s.seconds))));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${uri}",BYTERANGE="${index.initLength}@0"`,
  ];
  for (const s of index.segments) lines.push(`#EXTINF:${seconds(s.seconds)},`, `#EXT-X-BYTERANGE:${s.length}@${s.offset}`, uri);
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

export interface Variant {
  index: FragmentIndex;
  width: number;
  height: number;
  /** The media playlist's address relative to the master (`720p.m3u8?v=12`). */
  uri: string;
}

/** Peak and average bits per second over the fragments (BANDWIDTH must cover the peak). */
export function bandwidth(index: FragmentIndex): { peak: number; average: number } {
  const total = index.segments.reduce((sum, s) => sum + s.seconds, 0);
  const bytes = index.segments.reduce((sum, s) => sum + s.length, 0) + index.initLength;
  const peak = Math.max(...index.segments.map((s) => (s.seconds > 0 ? (s.length * 8) / s.seconds : 0)));
  const average = total > 0 ? (bytes * 8) / total : peak;
  return { peak: Math.ceil(Math.max(peak, average)), average: Math.ceil(average) };
}

/** The master playlist of a version: every size, the first being the one to start with. */
export function masterPlaylist(variants: Variant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of variants) {
    const { peak, average } = bandwidth(v.index);
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${peak},AVERAGE-BANDWIDTH=${average},RESOLUTION=${v.width}x${v.height},CODECS="${v.index.codecs}"`, v.uri);
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * A master playlist naming only the sizes `keep` allows (issue 40: a viewer behind a closed gate
 * gets no 2160p entry it would be refused). Each entry is an EXT-X-STREAM-INF line and its URI
 * (`720p.m3u8?v=12`, judged by its file name); the first kept entry is where players start.
 */
export function filterMaster(text: string, keep: (variant: string) => boolean): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('#EXT-X-STREAM-INF:')) {
      out.push(line);
      continue;
    }
    const uri = lines[++i] ?? '';
    if (keep(uri.split('?')[0]!)) out.push(line, uri);
  }
  return out.join('\n');
}

/**
 * A master playlist with subtitle renditions (issue 54): `media` are EXT-X-MEDIA lines of the
 * group "cc", and every size names the group, so Safari's own player (and any HLS client) offers
 * the captions. Without any the text is unchanged.
 */
export const SUBTITLE_GROUP = 'cc';
export function withSubtitles(text: string, media: string[]): string {
  if (!media.length) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      if (!placed) out.push(...media);
      placed = true;
      out.push(`${line},SUBTITLES="${SUBTITLE_GROUP}"`);
    } else out.push(line);
  }
  return out.join('\n');
}

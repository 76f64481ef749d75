// Shared by the marker writers: each note placed on frames of the version's timeline.
import { frameAt, labelToFrames, rateOf, type Rate } from './timecode.ts';
import type { MarkerNote, MarkerVersion } from './types.ts';

export interface PlacedMarker {
  note: MarkerNote;
  /** Frames from the first frame of the video. */
  frame: number;
  /** At least 1: one frame for a point note, the range's frames for a range. */
  frames: number;
}

export interface Placement {
  rate: Rate;
  /** The start timecode as frames from 00:00:00:00 (0 when ffprobe found none). */
  startFrames: number;
  /** The timeline's length in frames: the video's, or up to the last marker's end. */
  totalFrames: number;
  markers: PlacedMarker[];
}

/** Notes in time order (then by creation and id) on the version's frames. */
export function place(version: MarkerVersion, notes: readonly MarkerNote[]): Placement {
  const rate = rateOf(version.frameRate);
  const startFrames = labelToFrames(version.startTimecode, rate) ?? 0;
  const markers = [...notes]
    .sort((a, b) => a.timestampMs - b.timestampMs || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) || a.id - b.id)
    .map((note) => {
      const frame = frameAt(note.timestampMs, rate);
      const end = note.endMs != null ? frameAt(note.endMs, rate) : frame + 1;
      return { note, frame, frames: Math.max(1, end - frame) };
    });
  const videoFrames = version.durationSeconds != null && version.durationSeconds > 0 ? Math.ceil((version.durationSeconds * rate.num) / rate.den - 1e-9) : 0;
  const totalFrames = Math.max(1, videoFrames, ...markers.map((m) => m.frame + m.frames));
  return { rate, startFrames, totalFrames, markers };
}

export const stateLabel = (note: MarkerNote) => (note.resolved ? 'Resolved' : 'Open');

/** Who wrote it and where it stands: "Ana Costa · Open", "Sam · Resolved · Internal". */
export function byLine(note: MarkerNote): string {
  return [note.author || 'Unknown', stateLabel(note), ...(note.internal ? ['Internal'] : [])].join(' · ');
}

/** XML character data or an attribute value: & < > " ' escaped, line breaks kept as character references. */
export function xmlEscape(text: string): string {
  const clean = stripInvalidXml(text.replace(/\r\n?/g, '\n'));
  return /[&<>"'\n\t]/.test(clean) ? clean.replace(/[&<>"'\n\t]/g, (c) => XML_ENTITIES[c]!) : clean;
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };

/** Characters XML 1.0 cannot carry at all (control characters other than tab and line breaks, lone surrogates). */
const INVALID_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]/;

function stripInvalidXml(text: string): string {
  // Most text has none of them (a surrogate pair is checked below, so emoji stay).
  if (!INVALID_XML.test(text)) return text;
  return text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');
}

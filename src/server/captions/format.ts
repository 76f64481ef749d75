// Stored cues written out (issue 54): WebVTT for players and downloads, SRT for downloads, the
// HLS subtitle rendition (a media playlist and segmented WebVTT with X-TIMESTAMP-MAP), and the
// SubStation file the burn-in job draws. All of them on the version's frames (onFrames).
import { plainCueText } from './cue-text.ts';

export interface OutCue {
  startMs: number;
  endMs: number;
  text: string;
  settings: string;
}

/**
 * A cue on the version's frames: it shows from the first frame whose time is at or after its
 * start to the last frame before its end, at least one frame (issue 54: "from its first frame to
 * its last"). Frame k is shown at k/fps (the renditions keep the original's frame times, issue
 * 39). Files give times in whole milliseconds, so a time within half a millisecond after a frame's
 * start counts as that frame; the written times are the frames' times rounded down to the
 * millisecond, which a player at k/fps (or just after, as the frame step seeks) reads as frame k
 * active and frame k-1 not. Without a known rate the times stay as stored.
 */
export function onFrames<C extends OutCue>(cues: readonly C[], fps: number | null): C[] {
  if (!fps || !Number.isFinite(fps) || fps <= 0) return cues.slice();
  const frame = (ms: number) => Math.max(0, Math.ceil(((ms - 0.5) * fps) / 1000));
  const at = (k: number) => Math.floor((k * 1000) / fps);
  return cues.map((c) => {
    const first = frame(c.startMs);
    const after = Math.max(first + 1, frame(c.endMs));
    return { ...c, startMs: at(first), endMs: at(after) };
  });
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function clockOf(ms: number, sep: '.' | ','): string {
  const h = Math.floor(ms / 3_600_000);
  return `${pad(h)}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${pad(Math.floor((ms % 60_000) / 1000))}${sep}${pad(ms % 1000, 3)}`;
}
export const vttTime = (ms: number) => clockOf(ms, '.');

function vttCue(c: OutCue): string {
  return `${vttTime(c.startMs)} --> ${vttTime(c.endMs)}${c.settings ? ` ${c.settings}` : ''}\n${c.text}\n`;
}

export function toWebVtt(cues: readonly OutCue[]): string {
  return `WEBVTT\n\n${cues.map(vttCue).join('\n')}`;
}

/** SRT: numbered, `,` before the milliseconds, <i>/<b>/<u> kept, {\an8} for a cue placed at the top. */
export function toSrt(cues: readonly OutCue[]): string {
  return cues
    .map((c, i) => {
      const top = /(^| )line:0( |$)/.test(c.settings) ? '{\\an8}' : '';
      const text = c.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      return `${i + 1}\n${clockOf(c.startMs, ',')} --> ${clockOf(c.endMs, ',')}\n${top}${text}\n`;
    })
    .join('\n');
}

/**
 * Subtitle segments of the HLS rendition: Safari's own player (and other HLS clients) read the
 * subtitles as segmented WebVTT named by the master playlist. Long segments: a film's captions
 * are a few kB a minute, and each segment is a request.
 */
export const SEGMENT_MS = 30_000;

/** Each segment starts with X-TIMESTAMP-MAP: our fragmented MP4 proxies start at 0, so media time 0 is WebVTT time 0. */
const SEGMENT_HEAD = 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n';

export function segmentCount(durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs / SEGMENT_MS));
}

/** The subtitle media playlist; segments are `{base}-{n}.vtt` beside it. */
export function subtitlePlaylist(durationMs: number, base: string): string {
  const n = segmentCount(durationMs);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${Math.ceil(SEGMENT_MS / 1000)}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (let i = 0; i < n; i++) {
    const seconds = (Math.min(durationMs, (i + 1) * SEGMENT_MS) - i * SEGMENT_MS) / 1000;
    lines.push(`#EXTINF:${Math.max(0.001, seconds).toFixed(3)},`, `${base}-${i}.vtt`);
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/** Segment `n`: every cue that shows during it (a cue across a boundary is in both; players keep one). */
export function subtitleSegment(cues: readonly OutCue[], n: number): string {
  const from = n * SEGMENT_MS;
  const to = from + SEGMENT_MS;
  return SEGMENT_HEAD + cues.filter((c) => c.endMs > from && c.startMs < to).map(vttCue).join('\n');
}

/** The transcript: each cue's text as plain lines, repeated cues (a boundary's, a roll-up's) once. */
export function transcriptOf(cues: readonly Pick<OutCue, 'text'>[]): string[] {
  const out: string[] = [];
  for (const c of cues) {
    const text = plainCueText(c.text).replace(/\s*\n\s*/g, ' ').trim();
    if (text && text !== out[out.length - 1]) out.push(text);
  }
  return out;
}

const assTime = (ms: number) => {
  const cs = Math.floor(ms / 10);
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor((cs % 360_000) / 6000))}:${pad(Math.floor((cs % 6000) / 100))}.${pad(cs % 100)}`;
};

/**
 * The SubStation (ASS) file the burn-in draws with libass: our own, so the font, size and outline
 * are ours and the text cannot carry override tags (braces and backslashes in the text are shown
 * as look-alikes, never read as tags). Sized for the picture it is drawn on.
 */
export function toAss(cues: readonly OutCue[], width: number, height: number, font: string): string {
  const size = Math.max(16, Math.round(height / 18));
  const head = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,${font.replace(/,/g, ' ')},${size},&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,${Math.max(1, Math.round(size / 12))},0,2,${Math.round(width / 20)},${Math.round(width / 20)},${Math.round(height / 20)},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const events = cues.map((c) => {
    const an = /(^| )line:0( |$)/.test(c.settings) ? '{\\an8}' : /line:50%/.test(c.settings) ? '{\\an5}' : '';
    const text = c.text
      .replace(/[{]/g, '\uFF5B')
      .replace(/[}]/g, '\uFF5D')
      .replace(/\\/g, '\u29F5')
      .replace(/<(\/?)([ibu])>/g, (_m, close: string, tag: string) => `{\\${tag}${close ? 0 : 1}}`)
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .replace(/\n/g, '\\N');
    return `Dialogue: 0,${assTime(c.startMs)},${assTime(c.endMs)},Default,,0,0,0,,${an}${text}`;
  });
  return [...head, ...events, ''].join('\n');
}

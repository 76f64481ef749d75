// Caption files as editors' tools write them (issue 54), made in the test: encodings, line
// endings, styling; and the upload call.
import { expect } from 'vitest';
import type { Session } from './http.ts';
import { upload } from './media-uploads.ts';
import { waitSettled } from './processing.ts';

export type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16le-nobom' | 'utf-16be' | 'windows-1252';
export type LineEnding = 'lf' | 'crlf' | 'cr';

/** Windows-1252's bytes for the characters these tests use beyond Latin-1. */
const CP1252: Record<string, number> = { '€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };

export function encode(text: string, encoding: Encoding, ending: LineEnding = 'lf'): Uint8Array {
  const t = text.replace(/\r\n?/g, '\n').replace(/\n/g, ending === 'crlf' ? '\r\n' : ending === 'cr' ? '\r' : '\n');
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(t, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')]);
    case 'utf-16le':
      return Buffer.from(`\ufeff${t}`, 'utf16le');
    case 'utf-16le-nobom':
      return Buffer.from(t, 'utf16le');
    case 'utf-16be':
      return Buffer.from(`\ufeff${t}`, 'utf16le').swap16();
    case 'windows-1252':
      return Buffer.from(
        [...t].map((ch) => {
          const code = CP1252[ch] ?? ch.charCodeAt(0);
          if (code > 0xff) throw new Error(`${ch} has no Windows-1252 byte`);
          return code;
        }),
      );
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** 00:00:01,500 (SRT) or 00:00:01.500. */
export function srtTime(ms: number, sep = ','): string {
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

/** An SRT of `cues` ([startMs, endMs, text]). */
export function srt(cues: [number, number, string][]): string {
  return cues.map(([a, b, text], i) => `${i + 1}\n${srtTime(a)} --> ${srtTime(b)}\n${text}\n`).join('\n');
}

/** A film's worth of cues: `n` cues of 2 s from 0, each naming its number. */
export function filmSrt(n: number, everyMs = 2800): string {
  return srt(Array.from({ length: n }, (_, i) => [i * everyMs, i * everyMs + 2000, `Line ${i + 1} of the film,\nsecond row ${i + 1}`]));
}

export async function uploadCaption(s: Session, mediaId: number, versionId: number, bytes: Uint8Array | string, fields: Record<string, string> = {}, name = 'captions.srt') {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ language: 'en', ...fields })) fd.append(k, v);
  fd.append('file', new Blob([typeof bytes === 'string' ? Buffer.from(bytes) : new Uint8Array(bytes)]), name);
  return s.json('POST', `/api/media/${mediaId}/versions/${versionId}/captions`, fd);
}

/** The cue lines of a WebVTT answer: "start --> end settings" and the text, joined by "|". */
export function vttCues(vtt: string): string[] {
  return vtt
    .replace(/^WEBVTT[^\n]*\n(?:X-TIMESTAMP-MAP[^\n]*\n)?\n?/, '')
    .split(/\n\n+/)
    .map((b) => b.trim())
    .filter(Boolean)
    .map((b) => b.split('\n').join('|'));
}

/** A video uploaded as `title` (for `clientId`, if any) and converted: its upload answer and its ready state. */
export async function uploadReadyVideo(s: Session, title: string, data: Buffer, name: string, clientId: number | null) {
  const up = await upload(s, { title, ...(clientId ? { clientId: String(clientId) } : {}) }, { data, name });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const live = await waitSettled(s, up.body.id, 120_000);
  expect(live.processingStatus, `${title} converted`).toBe('ready');
  return { ...up.body, ...live };
}

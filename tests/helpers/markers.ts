// The version and notes the marker writers' unit tests share (issue 30), and the rates they are
// run at. The expected files under tests/fixtures/markers/ were written from the format
// descriptions for exactly these inputs.
import fs from 'node:fs';
import path from 'node:path';
import type { MarkerNote, MarkerVersion } from '../../src/server/review/markers/types.ts';

/** Rate name (the fixture file's stem), ffprobe's frame rate as stored, and its start timecode as ffprobe writes it. */
export const RATES: [string, number, string][] = [
  ['23.976', 24000 / 1001, '01:00:00:00'],
  ['24', 24, '01:00:00:00'],
  ['25', 25, '01:00:00:00'],
  ['29.97', 30000 / 1001, '01:00:00;00'],
  ['50', 50, '01:00:00:00'],
  ['59.94', 60000 / 1001, '01:00:00;00'],
];

export const version = (frameRate: number | null, startTimecode: string | null): MarkerVersion => ({
  title: 'Harbour Film',
  versionNumber: 2,
  frameRate,
  startTimecode,
  durationSeconds: 700,
  width: 1920,
  height: 1080,
});

const note = (n: Partial<MarkerNote> & Pick<MarkerNote, 'id' | 'timestampMs' | 'text'>): MarkerNote => ({
  endMs: null,
  author: 'Ana Costa',
  source: 'client',
  internal: false,
  resolved: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...n,
});

/** Given out of time order on purpose: the writers sort by time. */
export const NOTES: MarkerNote[] = [
  note({ id: 3, timestampMs: 600_000, text: 'Colour 日本語 — warmer', author: 'Jo Guest (link: Agency)', source: 'link', createdAt: '2026-11-20T12:00:00.000Z' }),
  note({ id: 1, timestampMs: 1500, text: 'Logo comes in too early' }),
  note({ id: 2, timestampMs: 61_000, endMs: 63_500, text: 'Cut, "tighter" here', author: 'Sam Reid', source: 'staff', resolved: true, createdAt: '2026-11-20T11:00:00.000Z' }),
];

export { note };

export const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'markers', name), 'utf8');

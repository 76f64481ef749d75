// DaVinci Resolve marker EDL (issue 30): CMX 3600 events with Resolve's `|C: |M: |D:` line,
// compared with the expected files at each rate from 01:00:00:00, plus line-safe text.
import { describe, expect, test } from 'vitest';
import { edlText, writeEdl } from '../../src/server/review/markers/edl.ts';
import { fixture, note, NOTES, RATES, version } from '../helpers/markers.ts';

describe('Resolve EDL', () => {
  test.each(RATES)('%s fps from the start timecode %s: matches the expected file', (name, fps, start) => {
    expect(writeEdl(version(fps, start), NOTES)).toBe(fixture(`${name}.edl`));
  });

  test('open notes are blue, resolved green; a range is a duration marker', () => {
    const out = writeEdl(version(25, null), NOTES);
    expect(out).toContain('001  001      V     C        00:00:01:12 00:00:01:13 00:00:01:12 00:00:01:13  \nAna Costa · Open |C:ResolveColorBlue |M:Logo comes in too early |D:1\n');
    expect(out).toContain('00:01:01:00 00:01:03:12 00:01:01:00 00:01:03:12  \nSam Reid · Resolved |C:ResolveColorGreen |M:Cut, "tighter" here |D:62\n');
  });

  test('an internal note says so', () => {
    expect(writeEdl(version(25, null), [note({ id: 9, timestampMs: 0, text: 'x', internal: true, author: 'Sam' })])).toContain('Sam · Open · Internal |C:ResolveColorBlue |M:x |D:1');
  });

  test('a version with no notes is a valid empty list: title and frame code mode only', () => {
    expect(writeEdl(version(30000 / 1001, '01:00:00;00'), [])).toBe('TITLE: Harbour Film v2 notes\nFCM: DROP FRAME\n\n');
    expect(writeEdl(version(null, null), [])).toBe('TITLE: Harbour Film v2 notes\nFCM: NON-DROP FRAME\n\n');
  });

  test.each([
    ['quotes and commas kept', 'Say "hi", then go', 'Say "hi", then go'],
    ['line breaks become " / "', 'one\ntwo\r\nthree\rfour', 'one / two / three / four'],
    ['the field separator | is replaced', 'a | b|c', 'a / b/c'],
    ['tabs and control characters become spaces', 'a\tb\u0007c', 'a b c'],
    ['non-Latin text kept as UTF-8', 'Цвет 日本語 عربى 🎬', 'Цвет 日本語 عربى 🎬'],
  ])('text: %s', (_name, text, expected) => {
    expect(edlText(text)).toBe(expected);
    const out = writeEdl(version(25, null), [note({ id: 1, timestampMs: 0, text, author: text })]);
    expect(out.split('\n')[4]).toBe(`${expected} · Open |C:ResolveColorBlue |M:${expected} |D:1`);
  });

  test('a title with a line break stays on the TITLE line', () => {
    expect(writeEdl({ ...version(25, null), title: 'Two\nlines' }, []).split('\n')[0]).toBe('TITLE: Two / lines v2 notes');
  });
});

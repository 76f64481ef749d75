// Final Cut Pro FCPXML markers (issue 30): rational times over the frame rate from the start
// timecode, compared with the expected files at each rate; XML escaping of the note text.
import { describe, expect, test } from 'vitest';
import { writeFcpxml } from '../../src/server/review/markers/fcpxml.ts';
import { fixture, note, NOTES, RATES, version } from '../helpers/markers.ts';

describe('FCPXML', () => {
  test.each(RATES)('%s fps from the start timecode %s: matches the expected file', (name, fps, start) => {
    expect(writeFcpxml(version(fps, start), NOTES)).toBe(fixture(`${name}.fcpxml`));
  });

  test('23.976: one frame is 1001/24000s and 01:00:00:00 is 86400 frames', () => {
    const out = writeFcpxml(version(24000 / 1001, '01:00:00:00'), NOTES);
    expect(out).toContain('frameDuration="1001/24000s"');
    expect(out).toContain('tcStart="86486400/24000s" tcFormat="NDF"');
    // 1.5 s is frame 35: (86400 + 35) × 1001 = 86521435.
    expect(out).toContain('<marker start="86521435/24000s" duration="1001/24000s" value="Logo comes in too early" completed="0" note="Ana Costa · Open"/>');
  });

  test('a version with no notes is a valid document with an empty gap', () => {
    const out = writeFcpxml(version(25, null), []);
    expect(out).toContain('<gap name="Gap" offset="0s" duration="700s" start="0s"/>');
    expect(out).not.toContain('<marker');
    expect(out.trim().endsWith('</fcpxml>')).toBe(true);
  });

  test.each([
    ['quotes, apostrophes, commas', `Say "hi", it's`, 'Say &quot;hi&quot;, it&apos;s'],
    ['markup characters', 'a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    ['line breaks kept as character references', 'one\ntwo\r\nthree', 'one&#10;two&#10;three'],
    ['characters XML cannot carry are dropped', 'a\u0007b\u0000c', 'abc'],
    ['non-Latin text kept', 'Цвет 日本語 عربى 🎬', 'Цвет 日本語 عربى 🎬'],
  ])('text: %s', (_name, text, expected) => {
    const out = writeFcpxml(version(25, null), [note({ id: 1, timestampMs: 0, text, author: text })]);
    expect(out).toContain(`value="${expected}" completed="0" note="${expected} · Open"`);
  });

  test('a resolved note is a completed to-do marker; an internal one says so', () => {
    const out = writeFcpxml(version(25, null), [note({ id: 1, timestampMs: 0, text: 'x', resolved: true, internal: true, author: 'Sam' })]);
    expect(out).toContain('completed="1" note="Sam · Resolved · Internal"');
  });
});

// Premiere Pro markers as Final Cut Pro 7 XML (xmeml 4), the XML Premiere imports (issue 30):
// sequence markers in frames from the sequence start, compared with the expected files at each rate.
import { describe, expect, test } from 'vitest';
import { writePremiereXml } from '../../src/server/review/markers/premiere.ts';
import { fixture, note, NOTES, RATES, version } from '../helpers/markers.ts';

describe('Premiere XML', () => {
  test.each(RATES)('%s fps from the start timecode %s: matches the expected file', (name, fps, start) => {
    expect(writePremiereXml(version(fps, start), NOTES)).toBe(fixture(`${name}-premiere.xml`));
  });

  test('29.97 is timebase 30 NTSC with a drop-frame start; a range has an out point, a point -1', () => {
    const out = writePremiereXml(version(30000 / 1001, '01:00:00;00'), NOTES);
    expect(out).toContain('<string>01:00:00;00</string>\n\t\t\t<frame>107892</frame>\n\t\t\t<displayformat>DF</displayformat>');
    expect(out).toContain('<timebase>30</timebase>\n\t\t\t<ntsc>TRUE</ntsc>');
    expect(out).toContain('<in>44</in>\n\t\t\t<out>-1</out>');
    expect(out).toContain('<in>1828</in>\n\t\t\t<out>1903</out>');
  });

  test('a version with no notes is a valid sequence without markers', () => {
    const out = writePremiereXml(version(25, null), []);
    expect(out).not.toContain('<marker>');
    expect(out).toContain('<duration>17500</duration>');
    expect(out.trim().endsWith('</xmeml>')).toBe(true);
  });

  test.each([
    ['quotes and commas', 'Say "hi", ok', 'Say &quot;hi&quot;, ok'],
    ['markup characters', '<b>&</b>', '&lt;b&gt;&amp;&lt;/b&gt;'],
    ['line breaks', 'one\ntwo', 'one&#10;two'],
    ['non-Latin text', 'Цвет 日本語 عربى', 'Цвет 日本語 عربى'],
  ])('text: %s', (_name, text, expected) => {
    const out = writePremiereXml(version(25, null), [note({ id: 1, timestampMs: 0, text, author: text })]);
    expect(out).toContain(`<comment>${expected} · Open</comment>\n\t\t\t<name>${expected}</name>`);
  });
});

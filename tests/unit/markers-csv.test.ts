// Plain CSV of the notes (issue 30), RFC 4180, compared with the expected files at each rate;
// quoting, line breaks, non-Latin text and the spreadsheet formula guard.
import { describe, expect, test } from 'vitest';
import { csvField, writeCsv } from '../../src/server/review/markers/csv.ts';
import { fixture, note, NOTES, RATES, version } from '../helpers/markers.ts';

describe('CSV', () => {
  test.each(RATES)('%s fps from the start timecode %s: matches the expected file', (name, fps, start) => {
    expect(writeCsv(version(fps, start), NOTES)).toBe(fixture(`${name}.csv`));
  });

  test('a version with no notes is the header row alone', () => {
    expect(writeCsv(version(25, null), [])).toBe('\ufeff#,Timecode in,Timecode out,Duration (frames),Start (ms),End (ms),Author,Source,State,Internal,Note,Created\r\n');
  });

  test.each([
    ['plain text unquoted', 'Logo early', 'Logo early'],
    ['a comma quotes the field', 'a, b', '"a, b"'],
    ['quotes are doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break quotes the field, written CRLF', 'one\ntwo', '"one\r\ntwo"'],
    ['non-Latin text as UTF-8', 'Цвет 日本語 عربى', 'Цвет 日本語 عربى'],
    ['a formula is shown as text', '=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['so is a leading -', '-1 frame', `'-1 frame`],
    ['so is a leading +', '+44 20 7946 0000', `'+44 20 7946 0000`],
    ['so is a leading @', '@SUM(A1:A9)', `'@SUM(A1:A9)`],
    ['so is a leading tab', '\t=1+1', `'\t=1+1`],
    // A lone CR is a line break, written CRLF; the guard still goes first.
    ['so is a leading carriage return', '\r=1+1', `"'\r\n=1+1"`],
  ])('note text: %s', (_name, text, expected) => {
    const out = writeCsv(version(25, null), [note({ id: 1, timestampMs: 0, text })]);
    expect(out.split('\r\n').slice(1).join('\r\n')).toBe(`1,00:00:00:00,00:00:00:01,1,0,,Ana Costa,client,Open,no,${expected},2026-11-20T10:00:00.000Z\r\n`);
  });

  // Issue 40: the Author column is written by people too (a link visitor names themself).
  test.each([
    ['=', '=HYPERLINK("http://x.test","Ana")', `"'=HYPERLINK(""http://x.test"",""Ana"")"`],
    ['+', '+1 Guest', `'+1 Guest`],
    ['-', '-Guest', `'-Guest`],
    ['@', '@Guest', `'@Guest`],
    ['tab', '\tGuest', `'\tGuest`],
    ['carriage return', '\rGuest', `"'\rGuest"`],
  ])('the Author column gets the formula guard: a leading %s', (_name, author, expected) => {
    const out = writeCsv(version(25, null), [note({ id: 1, timestampMs: 0, text: 'x', author })]);
    expect(out.split('\r\n').slice(1).join('\r\n')).toBe(`1,00:00:00:00,00:00:00:01,1,0,,${expected},client,Open,no,x,2026-11-20T10:00:00.000Z\r\n`);
  });

  test('csvField quotes only what needs it', () => {
    expect(csvField('x')).toBe('x');
    expect(csvField('=x')).toBe('=x');
    expect(csvField('=x', true)).toBe("'=x");
    expect(csvField('a"b')).toBe('"a""b"');
  });
});

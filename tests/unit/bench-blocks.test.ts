// BENCHMARKS.md holds only what the benchmarks printed: bench/run.mjs writes each benchmark's
// block with a checksum line and refuses to write when any block was edited by hand.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { END, START, problemsIn, writeBlocks } from '../../bench/blocks.mjs';

const ORDER = ['ssr', 'admin-lists', 'lighthouse'];
const EMPTY = `# Benchmarks\n\nProse.\n\n${START}\n${END}\n\nMore prose.\n`;
const written = writeBlocks(EMPTY, { ssr: '### SSR\n\n| a | b |\n| 1 | 2 |', lighthouse: '```\n/ perf 99\n```' }, ORDER) as string;

describe('generated blocks of BENCHMARKS.md', () => {
  test('blocks are written between the markers, in run order, with a checksum each, prose kept', () => {
    expect(problemsIn(written)).toEqual([]);
    expect(written.startsWith('# Benchmarks\n\nProse.\n\n')).toBe(true);
    expect(written.endsWith(`${END}\n\nMore prose.\n`)).toBe(true);
    expect(written.match(/<!-- bench:[a-z-]+:sha256 [0-9a-f]{64} -->/g)).toHaveLength(2);
    const withMiddle = writeBlocks(written, { 'admin-lists': 'lists' }, ORDER) as string;
    const at = (s: string) => withMiddle.indexOf(`<!-- bench:${s}:start -->`);
    expect(at('ssr')).toBeLessThan(at('admin-lists'));
    expect(at('admin-lists')).toBeLessThan(at('lighthouse'));
  });

  test('rewriting one block replaces it and leaves the others byte for byte', () => {
    const again = writeBlocks(written, { ssr: '### SSR\n\n| a | b |\n| 3 | 4 |' }, ORDER) as string;
    expect(again).toContain('| 3 | 4 |');
    expect(again).not.toContain('| 1 | 2 |');
    const lighthouse = (s: string) => s.slice(s.indexOf('<!-- bench:lighthouse:start -->'), s.indexOf('<!-- bench:lighthouse:end -->'));
    expect(lighthouse(again)).toBe(lighthouse(written));
    expect(problemsIn(again)).toEqual([]);
  });

  test.each([
    ['a figure changed', (s: string) => s.replace('| 1 | 2 |', '| 1 | 9 |'), /"ssr" block does not match its checksum/],
    ['a line added', (s: string) => s.replace('/ perf 99\n', '/ perf 99\n/about perf 99 (rerun alone at 03:33)\n'), /"lighthouse" block does not match its checksum/],
    ['the checksum line removed', (s: string) => s.replace(/<!-- bench:ssr:sha256 [0-9a-f]+ -->\n/, ''), /"ssr" block has no checksum line/],
    ['the checksum line made up', (s: string) => s.replace(/(<!-- bench:ssr:sha256 )[0-9a-f]{64}/, `$1${'0'.repeat(64)}`), /"ssr" block does not match/],
    ['text between blocks', (s: string) => s.replace('<!-- bench:lighthouse:start -->', 'A note.\n<!-- bench:lighthouse:start -->'), /text outside any benchmark's block/],
    ['an end marker removed', (s: string) => s.replace('<!-- bench:ssr:end -->\n', ''), /text outside any benchmark's block/],
  ])('%s: nothing is written and the error says why', (_, edit, message) => {
    const edited = edit(written);
    expect(edited).not.toBe(written);
    expect(problemsIn(edited).join('; ')).toMatch(message);
    // Refused even when the edited block is not among those being written.
    expect(() => writeBlocks(edited, { 'admin-lists': 'fresh' }, ORDER)).toThrow(/BENCHMARKS\.md was not written/);
  });

  test('an emptied block (start and end lines only) is written again', () => {
    const emptied = written.replace(/(<!-- bench:ssr:start -->\n)[\s\S]*?(<!-- bench:ssr:end -->)/, '$1$2');
    expect(problemsIn(emptied)).toEqual([]);
    expect(writeBlocks(emptied, { ssr: 'new figures' }, ORDER)).toContain('new figures');
  });

  test("the repository's BENCHMARKS.md has no hand-edited figures", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../BENCHMARKS.md'), 'utf8');
    expect(doc).toContain(START);
    expect(doc.match(/<!-- bench:[a-z-]+:sha256 /g)?.length ?? 0).toBeGreaterThan(0);
    expect(problemsIn(doc)).toEqual([]);
  });
});

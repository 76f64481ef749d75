// The streamed ZIP writer of gallery downloads (issue 42), read back by Info-ZIP's unzip: names
// (UTF-8, folders), contents and CRCs, empty entries, the ZIP64 end records once there are more
// than 65,535 entries, and entry names that could escape the folder refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { zipStream, type ZipEntry } from '../../src/server/proofing/zip.ts';
import { scratchDir } from '../helpers/scratch.ts';

async function write(entries: ZipEntry[]): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of zipStream(entries)) chunks.push(c);
  const file = path.join(scratchDir('zip-unit-'), 'out.zip');
  fs.writeFileSync(file, Buffer.concat(chunks));
  return file;
}

const entry = (name: string, parts: (string | Buffer)[]): ZipEntry => ({
  name,
  mtime: new Date('2026-05-02T14:00:02Z'),
  async open() {
    return (async function* () {
      for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
    })();
  },
});

describe('zipStream', () => {
  test('names, folders, contents in several chunks, an empty entry: unzip reads them all and their CRCs', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const file = await write([entry('Ceremony/IMG_0001.jpg', ['abc', big, 'xyz']), entry('Café – première.jpg', ['é']), entry('empty.txt', [])]);
    execFileSync('unzip', ['-tq', file]);
    expect(execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n')).toEqual(['Ceremony/IMG_0001.jpg', 'Café – première.jpg', 'empty.txt']);
    expect(execFileSync('unzip', ['-p', file, 'Ceremony/IMG_0001.jpg'], { maxBuffer: 1 << 24 }).equals(Buffer.concat([Buffer.from('abc'), big, Buffer.from('xyz')]))).toBe(true);
    expect(execFileSync('unzip', ['-p', file, 'Café – première.jpg'], { encoding: 'utf8' })).toBe('é');
    // The entry's time, read back from its MS-DOS date and time.
    expect(execFileSync('unzip', ['-Z', '-T', file, 'empty.txt'], { encoding: 'utf8' })).toContain('20260502.140002');
  });

  test('more than 65,535 entries: the ZIP64 end records carry the count', async () => {
    const n = 65_600;
    const file = await write(Array.from({ length: n }, (_, i) => entry(`f/${i}.txt`, [String(i)])));
    execFileSync('unzip', ['-tq', file], { maxBuffer: 1 << 26 });
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n');
    expect(names).toHaveLength(n);
    expect(names.at(-1)).toBe(`f/${n - 1}.txt`);
    expect(execFileSync('unzip', ['-p', file, 'f/65599.txt'], { encoding: 'utf8' })).toBe('65599');
  }, 120_000);

  // Issue 51: also as read by a tool that folds compatibility forms first (NFKC): fullwidth
  // dots and slashes, the one- and two-dot leaders, the small full stop, the fullwidth backslash.
  test('names that could leave the folder are refused, also after NFKC', async () => {
    const folded = ['．．／x.jpg', 'a／．．／．．／b', '\u2025/x.jpg', 'a/\u2024/b', '\uFE52\uFE52/x', 'a＼b.jpg', '／etc/passwd'];
    for (const bad of ['../x.jpg', '/etc/passwd', 'a/../../b', 'a\\b.jpg', '', 'a//b', ...folded]) {
      await expect(write([entry(bad, ['x'])]), bad).rejects.toThrow(/Unsafe ZIP entry name/);
    }
    // Fullwidth letters, brackets and a dot inside a name stay as they are.
    const file = await write([entry('写真（１）/ｆｏｔｏ．ｊｐｇ', ['x']), entry('a．．b.jpg', ['y'])]);
    expect(execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n')).toEqual(['写真（１）/ｆｏｔｏ．ｊｐｇ', 'a．．b.jpg']);
  });
});

// Folders dropped on the media page (issue 32): a browser test cannot make a DataTransfer that
// holds a folder, so the walk through FileSystemEntry objects is checked here with stand-ins
// shaped like Chromium's (readEntries answers in batches, then an empty one).
// tests/e2e/background-uploads.spec.ts drops a plain file on the real page.
import { describe, expect, test } from 'vitest';
import { droppedFiles } from '../../src/islands/admin/uploads/dropped-files.ts';

const file = (name: string, type = 'image/jpeg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2])], name, { type });

function fileEntry(f: File) {
  return { name: f.name, isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(f) };
}

function folder(name: string, children: unknown[], batch = 2) {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader() {
      let at = 0;
      return {
        readEntries(ok: (list: unknown[]) => void) {
          const list = children.slice(at, at + batch);
          at += batch;
          setTimeout(() => ok(list), 0);
        },
      };
    },
  };
}

/** A drop's DataTransfer: items with webkitGetAsEntry/getAsFile, as the drop event hands it. */
function transfer(items: { entry: unknown; file: File | null }[]): DataTransfer {
  return {
    items: items.map(({ entry, file: f }) => ({ kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => f })),
    files: items.map((i) => i.file).filter(Boolean),
  } as unknown as DataTransfer;
}

describe('droppedFiles', () => {
  test('a folder gives every image and video inside it, nested folders too, each its own file', async () => {
    const tree = folder('Shoot', [
      fileEntry(file('b-roll.mp4', 'video/mp4')),
      fileEntry(file('.DS_Store', '')),
      fileEntry(file('notes.txt', 'text/plain')),
      folder('Day 2', [fileEntry(file('a-still.jpg')), fileEntry(file('c-still.png', 'image/png'))]),
      fileEntry(file('a-cut.mov', 'video/quicktime')),
    ]);
    const files = await droppedFiles(transfer([{ entry: tree, file: null }]));
    // Read past the first batch of two entries; hidden and unsupported files left out.
    expect(files.map((f) => f.name)).toEqual(['a-cut.mov', 'b-roll.mp4', 'a-still.jpg', 'c-still.png']);
  });

  test('plain files and a folder dropped together', async () => {
    const loose = file('loose.jpg');
    const files = await droppedFiles(
      transfer([
        { entry: fileEntry(loose), file: loose },
        { entry: folder('More', [fileEntry(file('inside.gif', 'image/gif'))]), file: null },
      ]),
    );
    expect(files.map((f) => f.name)).toEqual(['loose.jpg', 'inside.gif']);
  });

  test('a dropped file is kept even when unsupported, so the dialog can say why it is refused', async () => {
    const odd = file('readme.txt', 'text/plain');
    expect((await droppedFiles(transfer([{ entry: null, file: odd }]))).map((f) => f.name)).toEqual(['readme.txt']);
  });
});

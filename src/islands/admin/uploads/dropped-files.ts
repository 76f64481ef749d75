// Files from a drop on the media page: plain files as they are, folders walked through
// DataTransferItem.webkitGetAsEntry (nested folders too), each file its own upload.
import { checkUploadFile } from '../media/upload.ts';

/** True while what is dragged holds files (not text or a link dragged from the page). */
export const dragsFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

async function readFolder(dir: FileSystemDirectoryEntry): Promise<File[]> {
  const reader = dir.createReader();
  const entries: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    entries.push(...batch);
  }
  const files: File[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory) files.push(...(await readFolder(e as FileSystemDirectoryEntry)));
    else {
      const f = await fileOf(e as FileSystemFileEntry);
      // A folder brings whatever lies in it: only what could be uploaded is taken.
      if (!checkUploadFile(f)) files.push(f);
    }
  }
  return files;
}

/**
 * The dropped files, folders expanded. Entries are taken during the drop event itself (the
 * DataTransfer is emptied once it ends), then read.
 */
export function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const taken = [...dt.items]
    .filter((i) => i.kind === 'file')
    .map((i) => ({ entry: i.webkitGetAsEntry?.() ?? null, file: i.getAsFile() }));
  if (!taken.length) return Promise.resolve([...dt.files]);
  return Promise.all(
    taken.map(async ({ entry, file }) => {
      if (entry?.isDirectory) return readFolder(entry as FileSystemDirectoryEntry);
      return file ? [file] : entry?.isFile ? [await fileOf(entry as FileSystemFileEntry)] : [];
    }),
  ).then((lists) => lists.flat());
}

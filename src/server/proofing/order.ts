// The order a gallery shows its images in (issue 42): by capture time (EXIF; images without
// one after the rest), by file name as people read them (IMG_2 before IMG_10), or as staff
// dragged them. One function for the staff screen, the viewers and the downloads.
import type { GallerySort } from '../../shared/schemas/proofing.ts';

export interface Orderable {
  id: number;
  filename: string;
  position: number;
  capturedAt: Date | null;
}

const names = new Intl.Collator('en-GB', { numeric: true, sensitivity: 'base' });

export function sortImages<T extends Orderable>(rows: T[], sort: GallerySort): T[] {
  const byName = (a: T, b: T) => names.compare(a.filename, b.filename) || a.id - b.id;
  const list = [...rows];
  if (sort === 'manual') return list.sort((a, b) => a.position - b.position || a.id - b.id);
  if (sort === 'filename') return list.sort(byName);
  return list.sort((a, b) => {
    const ta = a.capturedAt?.getTime() ?? Infinity;
    const tb = b.capturedAt?.getTime() ?? Infinity;
    return ta === tb ? byName(a, b) : ta - tb;
  });
}

/** A file name without its extension, as Lightroom's filter wants it ("IMG_0001.CR3" → "IMG_0001"). */
export function fileStem(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  return base.replace(/\.[^.]*$/, '') || base;
}

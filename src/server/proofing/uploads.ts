// A batch uploaded into a gallery through the upload tray (issue 42): each finished resumable
// upload becomes an item titled from its file name and joins the gallery (and set) at once; its
// gallery sizes are queued. Only images go into a gallery. The item is the gallery's still
// (media.gallery_id, issue 53): the library's lists and pickers leave it out until it leaves
// the gallery.
import { HttpError } from '../http.ts';
import { cleanName } from '../media/delivery.ts';
import { ingestOriginal } from '../media/library.ts';
import { newStorageKey } from '../storage/paths.ts';
import { finishInto } from '../uploads/finish.ts';
import type { AdminMedia } from '../../shared/schemas/media.ts';
import { addUploadedImage, assertSet, galleryRow, releaseStills } from './galleries.ts';
import { fileStem } from './order.ts';

export const IMAGES_ONLY = 'Only images go into a gallery: upload JPG, PNG, GIF, WebP or RAW stills (CR2, CR3, NEF, ARW, RAF, DNG).';

export async function finishIntoGallery(galleryId: number, uploadId: string, setId: number | null, uploaderId: string): Promise<AdminMedia> {
  await galleryRow(galleryId);
  await assertSet(galleryId, setId);
  const item = await finishInto(
    uploadId,
    uploaderId,
    (file) => {
      if (file.type.kind !== 'image') throw new HttpError(415, IMAGES_ONLY);
      const title = (cleanName(fileStem(file.filename)) || 'Image').slice(0, 200);
      return ingestOriginal(newStorageKey(), file, null, { title, projectStage: null, notes: '', clientId: null, tags: [], isFeatured: false, showInPortfolio: false }, uploaderId, galleryId);
    },
    (created) => created.id,
  );
  try {
    await addUploadedImage(galleryId, item.id, setId);
  } catch (e) {
    // The gallery went meanwhile: the still is not lost, it is the library's.
    await releaseStills(galleryId, [item.id]);
    throw e;
  }
  return item;
}

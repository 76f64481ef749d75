// Items and versions as a signed-in client sees them, the one way every portal answer is made
// (lists, versions, processing, approval): with the client's watermark on, every file is its
// preview (issue 17, client-watermark.ts); otherwise, while an item's downloads wait for
// approval, what a "No downloads" link shows (issue 40, client-gate.ts); then the download
// fields (issue 30, download-gate.ts).
import type { DownloadFields } from '../../shared/schemas/review.ts';
import { withClientDownloads } from '../review/download-gate.ts';
import { closedForClient } from '../sharing/client-gate.ts';
import { clientWatermarkLink, forClient, type FileFields } from '../sharing/client-watermark.ts';

export async function asClientSees<T extends FileFields>(
  clientId: number,
  rows: T[],
  typeOf: (row: T) => 'image' | 'video',
  mediaIdOf: (row: T) => number,
): Promise<(T & DownloadFields)[]> {
  const shown = (await clientWatermarkLink(clientId)) ? await forClient(clientId, rows, typeOf) : await closedForClient(clientId, rows, typeOf, mediaIdOf);
  return withClientDownloads(clientId, shown, mediaIdOf);
}

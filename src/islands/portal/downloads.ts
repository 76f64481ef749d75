// Browser downloads through plain anchors, so the file streams straight to disk
// (the delivery route answers with Content-Disposition: attachment).
import { DOWNLOAD_STAGGER_MS, type ClientMedia } from '../../shared/schemas/portal.ts';

function clickDownload(item: ClientMedia): void {
  const a = document.createElement('a');
  if (!item.downloadUrl) return;
  a.href = item.downloadUrl;
  a.download = item.filename || '';
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** One download per item, staggered so browsers don't drop any of them (001 §9). */
export function downloadAll(items: ClientMedia[]): void {
  items.forEach((item, i) => {
    setTimeout(() => clickDownload(item), i * DOWNLOAD_STAGGER_MS);
  });
}

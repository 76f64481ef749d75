// Who may put a new item on the public site (issue 40): "Featured" and "Show in portfolio"
// publish it the moment it is made, which is an edit of the site, so they need edit:media, as a
// new version of a live item does (src/server/review/versions.ts). upload:media alone adds
// items that only the studio sees.
import { HttpError } from '../http.ts';

/** The uploader, as the upload endpoints know them. */
export interface Uploader {
  id: string;
  permissions: readonly string[];
}

export const PUBLISHING_NEEDS_EDIT =
  "You don't have permission to do that (needs edit:media): \"Featured\" and \"Show in portfolio\" put the item on the public site.";

/** 403 when a new item would go public and `uploader` may not edit media. */
export function assertMayPublish(fields: { isFeatured: boolean; showInPortfolio: boolean }, uploader: Uploader): void {
  if ((fields.isFeatured || fields.showInPortfolio) && !uploader.permissions.includes('edit:media')) throw new HttpError(403, PUBLISHING_NEEDS_EDIT);
}

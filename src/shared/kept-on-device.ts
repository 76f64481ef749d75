// What the admin area keeps in this browser between page loads for the staff member signed in:
// the upload dialog's fields typed for a file (islands/admin/uploads/kept-fields.ts), so an
// interrupted upload continues with them. Each key names its user, so nobody else signing in
// on the browser reads them, and logout (logout.ts) removes them all, whoever they belong to.
export const KEPT_FIELDS_PREFIX = 'studio-upload-fields::';

/** Removes everything kept for any staff member (at logout: the next person may be anyone). */
export function forgetKeptOnDevice(): void {
  try {
    for (const k of Object.keys(localStorage)) if (k.startsWith(KEPT_FIELDS_PREFIX)) localStorage.removeItem(k);
  } catch {
    // Storage blocked: nothing could have been kept either.
  }
}

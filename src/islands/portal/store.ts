// The portal's cached data: media, own feedback and own timeline notes. Logout clears it.
import { atom } from 'nanostores';
import { apiGet, errorMessage } from '../../shared/api.ts';
import type { ClientFeedback, ClientMedia, ClientTimelineNote } from '../../shared/schemas/portal.ts';

export const $media = atom<ClientMedia[] | null>(null);
export const $mediaError = atom<string | null>(null);
export const $feedback = atom<ClientFeedback[]>([]);
export const $notes = atom<ClientTimelineNote[]>([]);
/** Why the notes could not be loaded: shown in place of "No timeline notes yet", with Retry. */
export const $notesError = atom<string | null>(null);

/** A 401 means the session ended: go back to sign-in. */
function onSignedOut(): void {
  window.location.assign('/client/login');
}

export async function loadMedia(): Promise<void> {
  $mediaError.set(null);
  try {
    const list = await apiGet<ClientMedia[]>('/api/client/media', { on401: 'null' });
    if (list === null) return onSignedOut();
    $media.set(list);
  } catch (e) {
    $mediaError.set(errorMessage(e, 'Could not load your media'));
  }
}

export async function loadFeedback(): Promise<void> {
  const list = await apiGet<ClientFeedback[]>('/api/client/media/feedback', { on401: 'null' }).catch(() => null);
  if (list) $feedback.set(list);
}

export async function loadNotes(): Promise<void> {
  try {
    const list = await apiGet<ClientTimelineNote[]>('/api/client/media/timeline-notes', { on401: 'null' });
    if (list === null) return onSignedOut();
    $notes.set(list);
    $notesError.set(null);
  } catch (e) {
    // An empty list would read as "no notes": say the list is missing instead.
    $notesError.set(errorMessage(e, 'Could not load your timeline notes'));
  }
}

export function clearPortalCache(): void {
  $media.set(null);
  $mediaError.set(null);
  $feedback.set([]);
  $notes.set([]);
  $notesError.set(null);
}

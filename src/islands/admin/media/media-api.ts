// Calls of the media screen (001 §7). Each mutation toasts its own success or failure
// (001 §8 Media) and reports whether it worked, so callers only refetch.
import { ApiError, apiJson, apiRequest, errorMessage } from '../../../shared/api.ts';
import type { AdminFeedback, AdminMedia, AdminTimelineNote, MediaUpdate } from '../../../shared/schemas/media.ts';
import { toast } from '../../../shared/toast.ts';

export interface ClientOption {
  id: number;
  name: string;
  email: string;
  company?: string;
}

/** Lists may come bare or wrapped ({ items }); both are accepted. */
function listOf<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  const items = (data as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items as T[]) : [];
}

export const fetchMedia = async () => listOf<AdminMedia>(await apiJson('GET', '/api/media'));
export const fetchClients = async () => listOf<ClientOption>(await apiJson('GET', '/api/clients'));
export const fetchFeedback = async () => listOf<AdminFeedback>(await apiJson('GET', '/api/admin/media/feedback'));
export const fetchTimelineNotes = async () => listOf<AdminTimelineNote>(await apiJson('GET', '/api/admin/media/timeline-notes'));

const fail = (title: string, e: unknown, fallback?: string) =>
  toast({ title, description: fallback ?? errorMessage(e), variant: 'destructive' });

/** PUT /api/media/{id} without toasts (bulk actions report once for all items). */
export function putMedia(id: number, patch: MediaUpdate): Promise<AdminMedia> {
  return apiJson<AdminMedia>('PUT', `/api/media/${id}`, patch);
}

/** PUT as multipart when a poster image is supplied (tags as a comma string). */
export async function putMediaWithPoster(id: number, patch: MediaUpdate, poster: File): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    form.set(k, Array.isArray(v) ? v.join(', ') : v === null ? '' : String(v));
  }
  form.set('posterFile', poster);
  const res = await fetch(`/api/media/${id}`, { method: 'PUT', body: form, credentials: 'include' });
  if (!res.ok) {
    const text = await res.text();
    let message = text || res.statusText;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      /* plain text */
    }
    throw new ApiError(res.status, message);
  }
}

export async function updateMedia(
  id: number,
  patch: MediaUpdate,
  failure: { title: string; description?: string } = { title: 'Update failed' },
  poster?: File | null,
): Promise<boolean> {
  try {
    if (poster) await putMediaWithPoster(id, patch, poster);
    else await putMedia(id, patch);
    toast({ title: 'Media updated', description: 'The media item has been updated.' });
    return true;
  } catch (e) {
    // 001 §8 gives these descriptions as fixed text; the server's reason is not appended.
    fail(failure.title, e, failure.description);
    return false;
  }
}

export async function deleteMedia(id: number): Promise<boolean> {
  try {
    await apiRequest('DELETE', `/api/media/${id}`);
    toast({ title: 'Media deleted', description: 'The media item has been deleted.' });
    return true;
  } catch (e) {
    fail('Failed to delete media', e);
    return false;
  }
}

export async function assignClient(mediaId: number, client: ClientOption): Promise<boolean> {
  try {
    await apiRequest('POST', `/api/media/${mediaId}/clients/${client.id}`);
    toast({ title: 'Client Added', description: `${client.name} can now see this media.` });
    return true;
  } catch (e) {
    fail('Assignment Failed', e, 'Failed to assign client to media');
    return false;
  }
}

export async function removeClient(mediaId: number, client: { id: number; name: string }): Promise<boolean> {
  try {
    await apiRequest('DELETE', `/api/media/${mediaId}/clients/${client.id}`);
    toast({ title: 'Client Removed', description: `${client.name} no longer sees this media.` });
    return true;
  } catch (e) {
    fail('Removal Failed', e, 'Failed to remove client from media');
    return false;
  }
}

/**
 * Runs one request per selected item (001 §7: bulk actions send one call per item), a few at
 * a time; reports once. Returns how many succeeded.
 */
export async function runBulk<T>(
  items: T[],
  call: (item: T) => Promise<unknown>,
  failureTitle: string,
): Promise<number> {
  let done = 0;
  const errors: unknown[] = [];
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        await call(item);
        done++;
      } catch (e) {
        errors.push(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, items.length) }, worker));
  if (errors.length) {
    fail(failureTitle, errors[0], `${errors.length} of ${items.length} items failed: ${errorMessage(errors[0])}`);
  } else {
    toast({ title: 'Bulk update completed', description: `Updated ${done} item${done === 1 ? '' : 's'}.` });
  }
  return done;
}

// The gallery viewer's calls (issue 42), the same for a client (/api/client/galleries/{id}) and
// a link's guest (/api/share/{token}/gallery): only the base differs.
import { apiJson } from '../../shared/api.ts';
import type { ViewerGallery, ViewerList, ViewerNote } from '../../shared/schemas/proofing.ts';
import type { Shape } from '../../shared/schemas/notes.ts';

export function viewerApi(base: string) {
  return {
    view: () => apiJson<ViewerGallery>('GET', base),
    mark: (imageId: number, body: { heart?: boolean; stars?: number }) => apiJson<{ heart: boolean; stars: number }>('PUT', `${base}/marks/${imageId}`, body),
    pick: (listId: number, imageId: number, on: boolean) => apiJson<ViewerList>(on ? 'PUT' : 'DELETE', `${base}/lists/${listId}/picks/${imageId}`),
    submit: (listId: number) => apiJson<ViewerList>('POST', `${base}/lists/${listId}/submit`),
    pin: (pin: string) => apiJson<{ ok: true }>('POST', `${base}/pin`, { pin }),
    note: (imageId: number, body: { text: string; shapes: Shape[] }) => apiJson<ViewerNote>('POST', `${base}/images/${imageId}/notes`, body),
    name: (body: { name: string; email: string }) => apiJson<{ name: string; email: string }>('PUT', `${base}/viewer`, body),
  };
}
export type ViewerApi = ReturnType<typeof viewerApi>;

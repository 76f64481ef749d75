// The viewer's gallery state (issue 42): hearts, stars, picks and lists, changed at once on
// screen and then by the server's answer (its refusal undoes the change and says why in a toast).
import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { formatDate } from '../../shared/format.ts';
import type { ViewerGallery, ViewerImage, ViewerList } from '../../shared/schemas/proofing.ts';
import type { ViewerApi } from './api.ts';

/** Why the list takes no more picks now (its cap, or it was submitted), or null. */
export function pickBlocked(list: ViewerList | undefined, img?: ViewerImage): string | null {
  if (!list) return null;
  if (list.submittedAt) return `You submitted “${list.name}” on ${formatDate(list.submittedAt)}. Ask the studio to reopen it to change it.`;
  if (img?.picks.includes(list.id)) return null;
  if (list.maxCount != null && list.count >= list.maxCount) return `You have picked ${list.maxCount} of ${list.maxCount} for “${list.name}”. Remove one to pick another.`;
  return null;
}

export function useGallery(initial: ViewerGallery, api: ViewerApi, ensureName: () => Promise<boolean>) {
  const [g, setG] = useState(initial);
  const byId = useMemo(() => new Map(g.images.map((img, i) => [img.id, i])), [g.images]);

  const patchImage = useCallback((id: number, change: (img: ViewerImage) => ViewerImage) => {
    setG((cur) => ({ ...cur, images: cur.images.map((img) => (img.id === id ? change(img) : img)) }));
  }, []);
  const putList = useCallback((list: ViewerList) => setG((cur) => ({ ...cur, lists: cur.lists.map((l) => (l.id === list.id ? list : l)) })), []);

  const mark = useCallback(
    async (id: number, change: { heart?: boolean; stars?: number }) => {
      if (!(await ensureName())) return;
      const before = g.images[byId.get(id)!];
      if (!before) return;
      patchImage(id, (img) => ({ ...img, ...change }));
      try {
        const saved = await api.mark(id, change);
        patchImage(id, (img) => ({ ...img, ...saved }));
      } catch (e) {
        patchImage(id, (img) => ({ ...img, heart: before.heart, stars: before.stars }));
        toast({ title: 'Not saved', description: errorMessage(e), variant: 'destructive' });
      }
    },
    [api, byId, ensureName, g.images, patchImage],
  );

  const togglePick = useCallback(
    async (listId: number, id: number) => {
      const list = g.lists.find((l) => l.id === listId);
      const img = g.images[byId.get(id)!];
      if (!list || !img) return;
      const on = !img.picks.includes(listId);
      const blocked = pickBlocked(list, on ? img : undefined) ?? (list.submittedAt ? pickBlocked(list) : null);
      if (blocked) {
        toast({ title: on ? 'Not picked' : 'Not changed', description: blocked, variant: 'destructive' });
        return;
      }
      if (!(await ensureName())) return;
      patchImage(id, (x) => ({ ...x, picks: on ? [...x.picks, listId] : x.picks.filter((p) => p !== listId) }));
      putList({ ...list, count: list.count + (on ? 1 : -1) });
      try {
        putList(await api.pick(listId, id, on));
      } catch (e) {
        patchImage(id, (x) => ({ ...x, picks: img.picks }));
        putList(list);
        toast({ title: on ? 'Not picked' : 'Not changed', description: errorMessage(e), variant: 'destructive' });
      }
    },
    [api, byId, ensureName, g.images, g.lists, patchImage, putList],
  );

  const submit = useCallback(
    async (listId: number) => {
      try {
        const list = await api.submit(listId);
        putList(list);
        toast({ title: 'Sent to the studio', description: `“${list.name}”: ${list.count} picked. The studio has been told.` });
        return true;
      } catch (e) {
        toast({ title: 'Not sent', description: errorMessage(e), variant: 'destructive' });
        return false;
      }
    },
    [api, putList],
  );

  return { g, setG, mark, togglePick, submit, indexOf: (id: number) => byId.get(id) ?? -1 };
}
export type GalleryState = ReturnType<typeof useGallery>;

// The viewer's gallery state (issue 42): hearts, stars, picks and lists, changed at once on
// screen and then by the server's answer (its refusal undoes the change and says why in a toast).
import { useCallback, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { formatDate } from '../../shared/format.ts';
import type { ViewerGallery, ViewerImage, ViewerList } from '../../shared/schemas/proofing.ts';
import type { ViewerApi } from './api.ts';

/** Why `img` cannot be picked into the list or taken out of it now (the cap, for a new pick; a sent list, for both), or null. */
export function pickBlocked(list: ViewerList | undefined, img: ViewerImage): string | null {
  if (!list) return null;
  if (list.submittedAt) return `You submitted “${list.name}” on ${formatDate(list.submittedAt)}. Ask the studio to reopen it to change it.`;
  if (img.picks.includes(list.id)) return null;
  if (list.maxCount != null && list.count >= list.maxCount) return `You have picked ${list.maxCount} of ${list.maxCount} for “${list.name}”. Remove one to pick another.`;
  return null;
}

/**
 * The gallery read again (the rest of a large one, or after a live event) over what is on
 * screen: the server's answer, which has whatever the studio or the job queue changed (images
 * added or gone, sizes and watermarked copies made, a list reopened with its note, downloads
 * left). While a heart, star or pick of the viewer's is still on its way (`keepMine`), their
 * marks and picks, and the lists' counts, stay as this page has them.
 */
export function mergeView(cur: ViewerGallery, fresh: ViewerGallery, keepMine: boolean): ViewerGallery {
  const mine = new Map(cur.images.map((img) => [img.id, img]));
  const counts = new Map(cur.lists.map((l) => [l.id, l.count]));
  return {
    ...fresh,
    // A guest who gave their name meanwhile keeps it (the answer may have been read before).
    viewer: fresh.viewer.needsName ? cur.viewer : fresh.viewer,
    images: fresh.images.map((img) => {
      const had = mine.get(img.id);
      if (!had) return img;
      const next = keepMine ? { ...img, heart: had.heart, stars: had.stars, picks: had.picks } : img;
      // An image that did not change stays the same object, so its tile does not render again.
      return sameImage(had, next) ? had : next;
    }),
    lists: keepMine ? fresh.lists.map((l) => ({ ...l, count: counts.get(l.id) ?? l.count })) : fresh.lists,
  };
}

function sameImage(a: ViewerImage, b: ViewerImage): boolean {
  return (Object.keys(b) as (keyof ViewerImage)[]).every((k) => {
    const x = a[k];
    const y = b[k];
    return Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((v, i) => v === y[i]) : x === y;
  });
}

export function useGallery(initial: ViewerGallery, api: ViewerApi, ensureName: () => Promise<boolean>) {
  const [g, setG] = useState(initial);
  const byId = useMemo(() => new Map(g.images.map((img, i) => [img.id, i])), [g.images]);
  // The viewer's changes on their way to the server, and how many were ever sent: a reload
  // during which one was under way keeps what is on screen for the viewer's own marks.
  const inFlight = useRef(0);
  const sent = useRef(0);
  const sending = useCallback(async <T,>(send: () => Promise<T>): Promise<T> => {
    inFlight.current++;
    sent.current++;
    try {
      return await send();
    } finally {
      inFlight.current--;
    }
  }, []);
  /** Reads the gallery again and puts it on screen (mergeView); throws when it could not. */
  const reload = useCallback(async () => {
    const since = sent.current;
    const fresh = await api.view();
    setG((cur) => mergeView(cur, fresh, inFlight.current > 0 || sent.current !== since));
  }, [api]);

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
        const saved = await sending(() => api.mark(id, change));
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
      // The cap holds back a new pick only: taking one out is always open until the list is sent.
      const blocked = pickBlocked(list, img);
      if (blocked) {
        toast({ title: on ? 'Not picked' : 'Not changed', description: blocked, variant: 'destructive' });
        return;
      }
      if (!(await ensureName())) return;
      patchImage(id, (x) => ({ ...x, picks: on ? [...x.picks, listId] : x.picks.filter((p) => p !== listId) }));
      putList({ ...list, count: list.count + (on ? 1 : -1) });
      try {
        putList(await sending(() => api.pick(listId, id, on)));
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

  return { g, setG, reload, mark, togglePick, submit, indexOf: (id: number) => byId.get(id) ?? -1 };
}
export type GalleryState = ReturnType<typeof useGallery>;

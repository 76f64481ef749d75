// Two stills side by side at equal size (issue 42), each with its file name always visible and
// its own heart and pick; stacked on a phone. Esc closes.
import { useEffect, useRef } from 'react';
import { CircleCheck, Heart, X } from 'lucide-react';
import type { ViewerImage, ViewerList } from '../../shared/schemas/proofing.ts';
import { largeUrl } from './files.ts';
import { pickBlocked } from './useGallery.ts';

const control = 'inline-flex h-9 items-center gap-1.5 rounded-full px-3 text-sm text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-gold-400 aria-disabled:opacity-50';

export function CompareStills({
  pair,
  fileBase,
  marked,
  list,
  onClose,
  onHeart,
  onPick,
}: {
  pair: [ViewerImage, ViewerImage];
  fileBase: string;
  marked: boolean;
  list: ViewerList | undefined;
  onClose: () => void;
  onHeart: (id: number) => void;
  onPick: (id: number) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={`Compare ${pair[0].name} and ${pair[1].name}`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-0 h-dvh max-h-none w-screen max-w-none bg-black p-0 text-white backdrop:bg-black"
      data-testid="compare-stills"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between px-3 py-2">
          <h2 className="text-sm font-medium">Compare</h2>
          <button type="button" onClick={onClose} aria-label="Close" className="rounded-full p-2 hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-gold-400">
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <div className="grid min-h-0 flex-1 grid-rows-2 gap-2 p-2 md:grid-cols-2 md:grid-rows-1">
          {pair.map((img) => {
            const picked = !!list && img.picks.includes(list.id);
            const blocked = pickBlocked(list, img);
            return (
              <figure key={img.id} className="flex min-h-0 flex-col">
                <img src={largeUrl(fileBase, img, marked)} alt={img.name} className="min-h-0 w-full flex-1 object-contain" />
                <figcaption className="flex flex-wrap items-center justify-between gap-2 pt-2 text-sm">
                  <span className="truncate" title={img.name}>
                    {img.name}
                  </span>
                  <span className="flex gap-1">
                    <button type="button" className={control} aria-pressed={img.heart} aria-label={`Heart ${img.name}`} onClick={() => onHeart(img.id)}>
                      <Heart size={16} className={img.heart ? 'fill-red-500 text-red-500' : ''} aria-hidden="true" />
                    </button>
                    {list && (
                      <button type="button" className={`${control} ${picked ? 'bg-gold-500 text-black' : ''}`} aria-pressed={picked} aria-disabled={blocked ? true : undefined} title={blocked ?? undefined} aria-label={`Pick ${img.name} for ${list.name}`} onClick={() => onPick(img.id)}>
                        <CircleCheck size={16} aria-hidden="true" />
                        {picked ? 'Picked' : 'Pick'}
                      </button>
                    )}
                  </span>
                </figcaption>
              </figure>
            );
          })}
        </div>
      </div>
    </dialog>
  );
}

// Choosing library images for a gallery (issue 42): every image not in it yet, searchable by
// title or file name, newest first, chosen with checkboxes ("Select all shown" for a shoot).
import { useEffect, useMemo, useState } from 'react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import type { AdminMedia } from '../../../shared/schemas/media.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';

const PAGE = 120;

export function LibraryPicker({ open, exclude, onClose, onAdd }: { open: boolean; exclude: Set<number>; onClose: () => void; onAdd: (mediaIds: number[]) => Promise<void> }) {
  const [items, setItems] = useState<AdminMedia[] | null>(null);
  const [error, setError] = useState('');
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [limit, setLimit] = useState(PAGE);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (!open) return;
    setChosen(new Set());
    apiJson<AdminMedia[]>('GET', '/api/media')
      .then((all) => setItems(all.filter((m) => m.type === 'image')))
      .catch((e) => setError(errorMessage(e)));
  }, [open]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (items ?? []).filter((m) => !exclude.has(m.id) && (!q || m.title.toLowerCase().includes(q) || m.filename.toLowerCase().includes(q)));
  }, [items, exclude, query]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add images from the library"
      size="2xl"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!chosen.size || pending}
            onClick={async () => {
              setPending(true);
              await onAdd([...chosen]);
              setPending(false);
            }}
          >
            Add {chosen.size || ''} image{chosen.size === 1 ? '' : 's'}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <div className="min-w-0 flex-1">
            <SearchInput value={query} onValueChange={setQuery} label="Search images" placeholder="Title or file name" />
          </div>
          <Button variant="outline" size="sm" onClick={() => setChosen(new Set(shown.map((m) => m.id)))} disabled={!shown.length}>
            Select all {shown.length.toLocaleString('en-GB')}
          </Button>
        </div>
        {error && <p className="text-sm text-danger">{error}</p>}
        {items === null && !error ? (
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {Array.from({ length: 12 }, (_, i) => (
              <Skeleton key={i} className="aspect-square" />
            ))}
          </div>
        ) : shown.length === 0 ? (
          <p className="py-8 text-center text-sm text-fg-muted">{query ? 'No image matches that.' : 'Every image of the library is in this gallery already. Upload new ones instead.'}</p>
        ) : (
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label="Library images">
            {shown.slice(0, limit).map((m) => (
              <li key={m.id}>
                <label className={`relative block aspect-square cursor-pointer overflow-hidden rounded-md border-2 ${chosen.has(m.id) ? 'border-accent' : 'border-transparent'}`}>
                  {m.thumbnailWebpUrl && <img src={m.thumbnailWebpUrl} alt="" className="h-full w-full object-cover" loading="lazy" />}
                  <input
                    type="checkbox"
                    className="absolute left-1.5 top-1.5 h-4 w-4 accent-gold-500"
                    checked={chosen.has(m.id)}
                    onChange={(e) =>
                      setChosen((cur) => {
                        const next = new Set(cur);
                        if (e.target.checked) next.add(m.id);
                        else next.delete(m.id);
                        return next;
                      })
                    }
                    aria-label={m.title}
                  />
                  <span className="absolute inset-x-0 bottom-0 truncate bg-black/55 px-1.5 py-0.5 text-xs text-white">{m.title}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {shown.length > limit && (
          <Button variant="outline" size="sm" onClick={() => setLimit((l) => l + PAGE)}>
            Show more ({(shown.length - limit).toLocaleString('en-GB')} left)
          </Button>
        )}
      </div>
    </Dialog>
  );
}

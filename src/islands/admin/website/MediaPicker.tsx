// Media picker dialog: the library from GET /api/media, searchable by title or tags,
// optionally limited to one type (logos and social images take images only).
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../shared/api.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { MediaPreview } from './MediaPreview.tsx';
import { fetchMediaLibrary, type PickerMedia } from './settings-api.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';

export function matchesSearch(item: Pick<PickerMedia, 'title' | 'tags'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return item.title.toLowerCase().includes(q) || item.tags.some((t) => t.toLowerCase().includes(q));
}

export function MediaPicker({
  open,
  title,
  type,
  selectedId,
  onClose,
  onSelect,
}: {
  open: boolean;
  title: string;
  /** Only this type is offered; both when absent. */
  type?: 'image' | 'video';
  selectedId?: number | null;
  onClose: () => void;
  onSelect: (item: PickerMedia) => void;
}) {
  const [items, setItems] = useState<PickerMedia[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');

  useEffect(() => {
    if (!open) return;
    let live = true;
    setQuery('');
    setError(null);
    fetchMediaLibrary()
      .then((list) => live && setItems(list))
      .catch((e) => live && setError(errorMessage(e, 'Could not load the media library')));
    return () => {
      live = false;
    };
  }, [open]);

  const shown = useMemo(() => (items ?? []).filter((m) => (!type || m.type === type) && matchesSearch(m, query)), [items, type, query]);

  return (
    <Dialog open={open} onClose={onClose} title={title} description={type ? `Choose ${type === 'image' ? 'an image' : 'a video'} from the media library.` : 'Choose an image or video from the media library.'} size="xl">
      <div className="space-y-4">
        <SearchInput label="Search media by title or tags" placeholder="Search by title or tags..." value={query} onValueChange={setQuery} />
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : items === null ? (
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="aspect-video w-full" />
            ))}
          </div>
        ) : shown.length === 0 ? (
          <EmptyState title={items.length ? 'No media matches your search' : 'No media uploaded yet'} />
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Media library">
            {shown.map((m) => (
              <li key={m.id}>
                <button
                  type="button"
                  onClick={() => onSelect(m)}
                  aria-pressed={selectedId === m.id}
                  className={`w-full rounded-lg border p-1.5 text-left hover:border-accent focus-visible:outline-2 focus-visible:outline-accent ${selectedId === m.id ? 'border-accent ring-1 ring-accent' : 'border-line'}`}
                >
                  <MediaPreview media={m} />
                  <span className="mt-1.5 block truncate text-sm font-medium">{m.title}</span>
                  {m.tags.length > 0 && <span className="block truncate text-xs text-fg-muted">{m.tags.join(', ')}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}

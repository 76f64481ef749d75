// /admin/galleries (issue 42): every proofing gallery with its cover, counts, who it is shared
// with, its expiry and how many lists came back; "New gallery" makes one and opens it.
import { useEffect, useState, type FormEvent } from 'react';
import { Images, Plus } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDate } from '../../../shared/format.ts';
import { GALLERY_SORT_LABELS, GALLERY_SORTS, type GalleryDetail, type GallerySort, type GallerySummary } from '../../../shared/schemas/proofing.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';

const day = (on: string) => formatDate(`${on}T12:00:00Z`);

export default function GalleriesManager({ canEdit }: { canEdit: boolean }) {
  const [list, setList] = useState<GallerySummary[] | null>(null);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    apiJson<GallerySummary[]>('GET', '/api/galleries')
      .then(setList)
      .catch((e) => {
        setList([]);
        toast({ title: 'Could not load galleries', description: errorMessage(e), variant: 'destructive' });
      });
  }, []);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Galleries</h1>
          <p className="text-sm text-fg-muted">Stills for clients to heart, pick and download, shared in the portal or through a link.</p>
        </div>
        {canEdit && (
          <Button onClick={() => setCreating(true)}>
            <Plus size={16} aria-hidden="true" /> New gallery
          </Button>
        )}
      </div>
      {list === null ? (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Loading galleries">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className="overflow-hidden rounded-xl border border-line bg-raised">
              <Skeleton className="aspect-[3/2] rounded-none" />
              <div className="space-y-2 p-4">
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="h-4 w-1/2" />
              </div>
            </li>
          ))}
        </ul>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Images size={32} aria-hidden="true" />}
          title="No galleries yet"
          description="Make a gallery from images in the library, or upload a shoot straight into one."
          action={canEdit ? <Button onClick={() => setCreating(true)}>New gallery</Button> : undefined}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="gallery-list">
          {list.map((g) => (
            <li key={g.id}>
              <a href={`/admin/galleries/${g.id}`} className="group block overflow-hidden rounded-xl border border-line bg-raised focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent">
                <div className="aspect-[3/2] bg-muted">{g.coverUrl && <img src={g.coverUrl} alt="" className="h-full w-full object-cover" loading="lazy" decoding="async" />}</div>
                <div className="space-y-2 p-4">
                  <p className="truncate font-medium" title={g.title}>
                    {g.title}
                  </p>
                  <p className="text-sm text-fg-muted">
                    {g.imageCount.toLocaleString('en-GB')} image{g.imageCount === 1 ? '' : 's'}
                    {g.clients.length ? ` · ${g.clients.map((c) => c.name).join(', ')}` : ''}
                    {g.links ? ` · ${g.links} link${g.links === 1 ? '' : 's'}` : ''}
                  </p>
                  <div className="flex flex-wrap gap-1.5">
                    {g.expired ? <Badge tone="warning">Expired {day(g.expiresOn!)}</Badge> : g.expiresOn ? <Badge tone="outline">Until {day(g.expiresOn)}</Badge> : null}
                    {g.submitted > 0 && <Badge tone="accent">{g.submitted} list{g.submitted === 1 ? '' : 's'} submitted</Badge>}
                  </div>
                </div>
              </a>
            </li>
          ))}
        </ul>
      )}
      <NewGalleryDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function NewGalleryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [sortOrder, setSortOrder] = useState<GallerySort>('capture');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!title.trim()) return setError('Give the gallery a title.');
    setPending(true);
    try {
      const g = await apiJson<GalleryDetail>('POST', '/api/galleries', { title: title.trim(), sortOrder });
      window.location.assign(`/admin/galleries/${g.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  }
  return (
    <Dialog open={open} onClose={onClose} title="New gallery" description="Add images from the library or upload them next." size="sm">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Title" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} error={error || undefined} autoFocus />
        <Select label="Order" value={sortOrder} onChange={(e) => setSortOrder(e.target.value as GallerySort)} options={GALLERY_SORTS.map((s) => ({ value: s, label: GALLERY_SORT_LABELS[s] }))} />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            Make gallery
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

// A gallery's images for staff (issue 42): add from the library, upload a batch through the tray
// (hundreds at once, resumable), sets, cover, remove, and the manual order by dragging a tile
// onto another (or with its menu from the keyboard).
import { useMemo, useRef, useState, type DragEvent } from 'react';
import { Check, GripVertical, ImagePlus, MoreHorizontal, Upload } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { formatDateTime } from '../../../shared/format.ts';
import type { StaffGalleryImage } from '../../../shared/schemas/proofing.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Menu } from '../../ui/Menu.tsx';
import { JustifiedGrid } from '../../proofing/JustifiedGrid.tsx';
import { enqueueIntoGallery } from '../uploads/queue.ts';
import type { EditorProps } from './editor-props.ts';
import { LibraryPicker } from './LibraryPicker.tsx';

/** What the file input takes: images, and RAW stills by their extension (browsers know no type for them). */
export const STILL_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp,.cr2,.cr3,.nef,.arw,.raf,.dng';

const chip = (on: boolean) => `inline-flex h-8 shrink-0 items-center rounded-full border px-3 text-sm ${on ? 'border-accent bg-accent text-accent-fg' : 'border-line bg-raised hover:bg-muted'}`;

export function ImagesTab({ g, reload, can }: EditorProps) {
  const [setView, setSetView] = useState<number | 'all' | 'none'>('all');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [picking, setPicking] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => g.images.filter((i) => setView === 'all' || (setView === 'none' ? i.setId == null : i.setId === setView)), [g.images, setView]);
  const ratios = useMemo(() => shown.map((i) => i.width / i.height), [shown]);
  const manual = g.sortOrder === 'manual';
  // Tiles name their set where the view mixes sets (issue 53).
  const setNames = useMemo(() => new Map(setView === 'all' ? g.sets.map((s) => [s.id, s.name]) : []), [g.sets, setView]);

  async function call(method: string, path: string, body: unknown, done: string) {
    try {
      await apiJson(method, `/api/galleries/${g.id}${path}`, body);
      await reload();
      toast({ title: done });
      return true;
    } catch (e) {
      toast({ title: 'Not changed', description: errorMessage(e), variant: 'destructive' });
      return false;
    }
  }
  const ids = () => [...selected];
  const moveTo = (setId: number | null) => call('PATCH', '/images', { imageIds: ids(), setId }, setId == null ? 'Taken out of their set' : `Moved to “${g.sets.find((s) => s.id === setId)?.name}”`).then((ok) => ok && setSelected(new Set()));

  /** The whole gallery's order with `id` moved to `to` (an index in the whole order). */
  async function reorder(id: number, to: number) {
    const order = g.images.map((i) => i.id).filter((x) => x !== id);
    order.splice(Math.max(0, Math.min(order.length, to)), 0, id);
    await call('PUT', '/order', { imageIds: order }, 'Order saved');
  }
  const indexOf = (id: number) => g.images.findIndex((i) => i.id === id);
  const onDrop = (e: DragEvent, target: number) => {
    e.preventDefault();
    if (dragged == null || dragged === target) return;
    void reorder(dragged, indexOf(target));
    setDragged(null);
  };

  function upload(files: FileList | null) {
    if (!files?.length) return;
    const list = [...files];
    enqueueIntoGallery(list, { id: g.id, title: g.title, setId: typeof setView === 'number' ? setView : null });
    toast({ title: `Uploading ${list.length} image${list.length === 1 ? '' : 's'}`, description: 'Follow them in the upload tray; they join the gallery as each one finishes.' });
    if (file.current) file.current.value = '';
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        {can.edit && (
          <Button variant="outline" onClick={() => setPicking(true)}>
            <ImagePlus size={16} aria-hidden="true" /> Add from library
          </Button>
        )}
        {can.edit && can.upload && (
          <>
            <Button variant="outline" onClick={() => file.current?.click()}>
              <Upload size={16} aria-hidden="true" /> Upload images
            </Button>
            <input ref={file} type="file" multiple accept={STILL_ACCEPT} className="sr-only" aria-label="Images to upload into the gallery" onChange={(e) => upload(e.target.files)} data-testid="gallery-upload-input" />
          </>
        )}
        {manual && <span className="text-sm text-fg-muted">Drag a tile onto another to move it there.</span>}
      </div>
      {(g.sets.length > 0 || g.images.some((i) => i.setId == null)) && g.sets.length > 0 && (
        <div role="group" aria-label="Show set" className="flex gap-2 overflow-x-auto pb-1">
          <button type="button" className={chip(setView === 'all')} aria-pressed={setView === 'all'} onClick={() => setSetView('all')}>
            All ({g.images.length})
          </button>
          {g.sets.map((s) => (
            <button key={s.id} type="button" className={chip(setView === s.id)} aria-pressed={setView === s.id} onClick={() => setSetView(s.id)}>
              {s.name} ({g.images.filter((i) => i.setId === s.id).length})
            </button>
          ))}
          <button type="button" className={chip(setView === 'none')} aria-pressed={setView === 'none'} onClick={() => setSetView('none')}>
            In no set ({g.images.filter((i) => i.setId == null).length})
          </button>
        </div>
      )}
      {can.edit && selected.size > 0 && (
        <div className="flex flex-wrap items-center gap-2 rounded-lg border border-line bg-raised p-2 text-sm" role="region" aria-label="Selected images">
          <span className="px-2 font-medium">{selected.size} selected</span>
          {g.sets.length > 0 && (
            <Menu
              label="Move to set"
              labelTrigger={false}
              trigger="Move to set"
              triggerClassName="inline-flex h-8 items-center rounded-md border border-line px-3 hover:bg-muted"
              items={[...g.sets.map((s) => ({ label: s.name, onSelect: () => void moveTo(s.id) })), { label: 'No set', onSelect: () => void moveTo(null) }]}
            />
          )}
          {selected.size === 1 && (
            <Button size="sm" variant="outline" onClick={() => void call('PATCH', '', { coverMediaId: g.images.find((i) => i.id === ids()[0])!.mediaId }, 'Cover set')}>
              Make cover
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => setSelected(new Set(shown.map((i) => i.id)))}>
            Select all {shown.length}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
          <Button size="sm" variant="destructive" onClick={() => setRemoving(true)}>
            Remove from gallery
          </Button>
        </div>
      )}
      {shown.length === 0 ? (
        <EmptyState
          title="No images here yet"
          description={can.edit ? 'Add images from the library, or upload a shoot: hundreds at once go through the upload tray and resume after a lost connection.' : 'Images appear here once staff add them.'}
          action={
            can.edit ? (
              <Button onClick={() => setPicking(true)}>
                <ImagePlus size={16} aria-hidden="true" /> Add from library
              </Button>
            ) : undefined
          }
        />
      ) : (
        <JustifiedGrid
          ratios={ratios}
          label={`Images of ${g.title}`}
          testId="staff-gallery-grid"
          renderTile={(i) => {
            const img = shown[i]!;
            return (
              <StaffTile
                img={img}
                isCover={g.coverMediaId === img.mediaId}
                setName={img.setId == null ? undefined : setNames.get(img.setId)}
                selected={selected.has(img.id)}
                canEdit={can.edit}
                manual={manual && can.edit}
                onSelect={(on) =>
                  setSelected((cur) => {
                    const next = new Set(cur);
                    if (on) next.add(img.id);
                    else next.delete(img.id);
                    return next;
                  })
                }
                onDragStart={() => setDragged(img.id)}
                onDrop={(e) => onDrop(e, img.id)}
                onMove={(to) => void reorder(img.id, to === 'start' ? 0 : to === 'end' ? g.images.length : indexOf(img.id) + to)}
              />
            );
          }}
        />
      )}
      <LibraryPicker
        open={picking}
        exclude={new Set(g.images.map((i) => i.mediaId))}
        onClose={() => setPicking(false)}
        onAdd={async (mediaIds) => {
          const ok = await call('POST', '/images', { mediaIds, setId: typeof setView === 'number' ? setView : null }, `${mediaIds.length} image${mediaIds.length === 1 ? '' : 's'} added`);
          if (ok) setPicking(false);
        }}
      />
      <ConfirmDialog
        open={removing}
        title="Remove from the gallery?"
        message={`${selected.size} image${selected.size === 1 ? '' : 's'} leave the gallery, with viewers' hearts and picks of them. The library keeps them.`}
        confirmLabel="Remove"
        onCancel={() => setRemoving(false)}
        onConfirm={async () => {
          if (await call('DELETE', '/images', { imageIds: ids() }, 'Removed from the gallery')) setSelected(new Set());
          setRemoving(false);
        }}
      />
    </div>
  );
}

function StaffTile({
  img,
  isCover,
  setName,
  selected,
  canEdit,
  manual,
  onSelect,
  onDragStart,
  onDrop,
  onMove,
}: {
  img: StaffGalleryImage;
  isCover: boolean;
  setName?: string;
  selected: boolean;
  canEdit: boolean;
  manual: boolean;
  onSelect: (on: boolean) => void;
  onDragStart: () => void;
  onDrop: (e: DragEvent) => void;
  onMove: (to: 'start' | 'end' | -1 | 1) => void;
}) {
  const caption = [img.filename, img.capturedAt ? formatDateTime(img.capturedAt) : null, img.camera, img.lens].filter(Boolean).join(' · ');
  return (
    <div
      className={`group relative h-full w-full overflow-hidden rounded-sm bg-muted ${selected ? 'ring-4 ring-accent ring-inset' : ''}`}
      draggable={manual}
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        onDragStart();
      }}
      onDragOver={(e) => manual && e.preventDefault()}
      onDrop={onDrop}
      data-testid="staff-tile"
      title={caption}
    >
      {img.thumbUrl && <img src={img.thumbUrl} alt="" loading="lazy" decoding="async" draggable={false} className="h-full w-full object-cover" />}
      <div className="absolute inset-x-0 top-0 flex items-start justify-between gap-1 p-1.5">
        {canEdit ? (
          <label
            className={`inline-flex h-7 w-7 cursor-pointer items-center justify-center rounded has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-white has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-black ${selected ? 'bg-accent text-accent-fg' : 'bg-black/50 text-white'}`}
          >
            <input type="checkbox" className="sr-only" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={`Select ${img.filename}`} />
            <Check size={16} className={selected ? '' : 'opacity-30'} aria-hidden="true" />
          </label>
        ) : (
          <span />
        )}
        <span className="flex flex-wrap justify-end gap-1">
          {setName && (
            <Badge tone="outline" className="max-w-32 bg-raised">
              <span className="min-w-0 truncate">{setName}</span>
            </Badge>
          )}
          {isCover && <Badge tone="accent">Cover</Badge>}
          {img.raw && <Badge>RAW</Badge>}
          {!img.ready && <Badge tone="outline" className="bg-raised">Making sizes</Badge>}
        </span>
      </div>
      <div className="absolute inset-x-0 bottom-0 flex items-center justify-between gap-1 bg-gradient-to-t from-black/60 p-1.5 text-xs text-white">
        <span className="truncate">{img.filename}</span>
        {manual && (
          <span className="flex items-center">
            <GripVertical size={14} aria-hidden="true" className="opacity-70" />
            <Menu
              label={`Move ${img.filename}`}
              trigger={<MoreHorizontal size={16} aria-hidden="true" />}
              triggerClassName="inline-flex h-7 w-7 items-center justify-center rounded hover:bg-white/20"
              items={[
                { label: 'Move to the start', onSelect: () => onMove('start') },
                { label: 'Move earlier', onSelect: () => onMove(-1) },
                { label: 'Move later', onSelect: () => onMove(1) },
                { label: 'Move to the end', onSelect: () => onMove('end') },
              ]}
            />
          </span>
        )}
      </div>
    </div>
  );
}

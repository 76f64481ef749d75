// The full-screen view (issue 42): black surround, the image fitted to the screen, its file name
// and capture time small in a corner; arrows, F (heart), P (pick), 1-5 stars (0 clears), N
// (notes), ? (keys) and Esc. Notes with drawings on the still, as in the review screens.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight, CircleCheck, Download, Heart, Keyboard, MessageSquare, Star, X } from 'lucide-react';
import { formatDateTime } from '../../shared/format.ts';
import { MAX_PORTAL_TEXT } from '../../shared/schemas/portal.ts';
import type { DownloadTier, ViewerImage, ViewerList, ViewerNote } from '../../shared/schemas/proofing.ts';
import { DrawingLayer, DrawingText, DrawingTools, ShapesPreview, noteDrawings, useDrawing } from '../review/DrawingLayer.tsx';
import { Button } from '../ui/Button.tsx';
import { Menu } from '../ui/Menu.tsx';
import { Textarea } from '../ui/Textarea.tsx';
import { KeysDialog } from './dialogs.tsx';
import { largeUrl, sizeLabel } from './files.ts';
import { pickBlocked } from './useGallery.ts';

const bar = 'inline-flex h-10 min-w-9 items-center justify-center gap-1.5 rounded-full px-2 text-sm text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-gold-400 aria-disabled:opacity-50 sm:min-w-10 sm:px-2.5';

/** A sideways swipe this long (px), and longer than it is tall, moves to the next or previous image. */
const SWIPE_PX = 50;

function typing(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && !['button', 'checkbox', 'radio'].includes(t.type)));
}

export function Lightbox({
  images,
  index,
  fileBase,
  marked,
  list,
  notes,
  canComment,
  highResEdge,
  onIndex,
  onClose,
  onHeart,
  onStars,
  onPick,
  onDownload,
  onNote,
}: {
  images: ViewerImage[];
  index: number;
  fileBase: string;
  marked: boolean;
  list: ViewerList | undefined;
  notes: ViewerNote[];
  canComment: boolean;
  highResEdge: number;
  onIndex: (i: number) => void;
  /** Closed on `imageId` (the photo shown last, whose tile takes the keyboard focus back). */
  onClose: (imageId: number) => void;
  onHeart: (id: number) => void;
  onStars: (id: number, stars: number) => void;
  onPick: (id: number) => void;
  onDownload: (img: ViewerImage, size: Exclude<DownloadTier, 'off'>) => void;
  onNote: (id: number, text: string, shapes: ViewerNote['shapes']) => Promise<boolean>;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const img = images[index];
  const [showNotes, setShowNotes] = useState(false);
  const [keys, setKeys] = useState(false);
  const drawing = useDrawing();
  const mine = useMemo(() => notes.filter((n) => n.imageId === img?.id), [notes, img?.id]);
  const drawings = useMemo(() => noteDrawings(mine.map((n) => ({ ...n, timestampMs: 0 }))), [mine]);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  // A new image: a drawing begun on the last one is not carried over.
  useEffect(() => drawing.reset(), [img?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!img) return null;
  const go = (delta: number) => onIndex(Math.min(images.length - 1, Math.max(0, index + delta)));
  // Closed by the dialog first, so the page is no longer inert when the grid takes focus back.
  const close = () => {
    ref.current?.close();
    onClose(img.id);
  };
  // Phones: a swipe across the picture goes to the next or previous image (not while drawing).
  // The picture takes sideways pans itself (touch-action below): left to the browser, a swipe to
  // the right is Chromium's "back" gesture and leaves the gallery (seen in the phone test).
  const swipe = {
    onTouchStart: (e: React.TouchEvent) => {
      const t = e.touches[0];
      touch.current = e.touches.length === 1 && t && !drawing.active ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchEnd: (e: React.TouchEvent) => {
      const from = touch.current;
      const t = e.changedTouches[0];
      touch.current = null;
      if (!from || !t) return;
      const dx = t.clientX - from.x;
      const dy = t.clientY - from.y;
      if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) go(dx < 0 ? 1 : -1);
    },
  };
  const picked = !!list && img.picks.includes(list.id);
  const blocked = pickBlocked(list, img);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || keys) return;
    const k = e.key;
    if (k === 'ArrowLeft') go(-1);
    else if (k === 'ArrowRight') go(1);
    else if (k === 'f' || k === 'F') onHeart(img.id);
    else if ((k === 'p' || k === 'P') && list) onPick(img.id);
    else if (/^[0-5]$/.test(k)) onStars(img.id, Number(k) === img.stars ? 0 : Number(k));
    else if (k === 'n' || k === 'N') setShowNotes((s) => !s);
    else if (k === '?') setKeys(true);
    else return;
    e.preventDefault();
  };

  return (
    <dialog
      ref={ref}
      aria-label={`${img.name}, ${index + 1} of ${images.length}`}
      onCancel={(e) => {
        e.preventDefault();
        // Escape ends a drawing first, then the notes, then the view.
        if (drawing.active) drawing.setActive(false);
        else close();
      }}
      onKeyDown={onKeyDown}
      className="m-0 h-dvh max-h-none w-screen max-w-none bg-black p-0 text-white backdrop:bg-black"
      data-testid="lightbox"
    >
      <div className="flex h-full flex-col">
        {/* On a phone the counter and Close share the first row and the actions have one row of
            their own under it (at 375 px they wrapped with Close on the second, issue 53); from
            640 px one row. */}
        <div className="flex flex-wrap items-center gap-x-1 gap-y-0.5 px-2 py-1.5 sm:flex-nowrap sm:px-4">
          <span className="mr-auto text-sm tabular-nums text-white/80" aria-live="polite">
            {index + 1} / {images.length}
          </span>
          <div role="group" aria-label="Image actions" className="order-last flex w-full items-center justify-center gap-0.5 sm:order-none sm:w-auto sm:gap-1" data-testid="lightbox-actions">
            <button type="button" className={bar} aria-pressed={img.heart} aria-label="Heart" title="Heart (F)" onClick={() => onHeart(img.id)}>
              <Heart size={18} className={img.heart ? 'fill-red-500 text-red-500' : ''} aria-hidden="true" />
            </button>
            {list && (
              <button
                type="button"
                className={`${bar} ${picked ? 'bg-gold-500 text-black hover:bg-gold-400' : ''}`}
                aria-pressed={picked}
                aria-disabled={blocked ? true : undefined}
                aria-label={`Pick for ${list.name}`}
                title={blocked ?? `Pick for “${list.name}” (P)`}
                onClick={() => onPick(img.id)}
              >
                <CircleCheck size={18} aria-hidden="true" />
                <span className="hidden sm:inline">{picked ? 'Picked' : 'Pick'}</span>
              </button>
            )}
            <div role="group" aria-label="Stars" className="flex">
              {[1, 2, 3, 4, 5].map((n) => (
                <button key={n} type="button" className="inline-flex h-10 w-6 items-center justify-center rounded text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-gold-400 sm:w-7" aria-pressed={img.stars >= n} aria-label={`${n} star${n === 1 ? '' : 's'}`} onClick={() => onStars(img.id, img.stars === n ? 0 : n)}>
                  <Star size={16} className={img.stars >= n ? 'fill-gold-400 text-gold-400' : 'text-white/70'} aria-hidden="true" />
                </button>
              ))}
            </div>
            <button type="button" className={bar} aria-pressed={showNotes} aria-label={`Notes (${mine.length})`} title="Notes (N)" onClick={() => setShowNotes((s) => !s)}>
              <MessageSquare size={18} aria-hidden="true" />
              {mine.length > 0 && <span className="text-xs">{mine.length}</span>}
            </button>
            {img.sizes.length > 0 && (
              <Menu
                label="Download this image"
                trigger={<Download size={18} aria-hidden="true" />}
                triggerClassName={bar}
                panelClassName="min-w-56 text-fg"
                items={img.sizes.map((s) => ({ label: sizeLabel(s, highResEdge, marked), onSelect: () => onDownload(img, s) }))}
              />
            )}
            <button type="button" className={`${bar} hidden sm:inline-flex`} aria-label="Keyboard shortcuts" title="Keys (?)" onClick={() => setKeys(true)}>
              <Keyboard size={18} aria-hidden="true" />
            </button>
          </div>
          <button type="button" className={bar} aria-label="Close" title="Close (Esc)" onClick={close}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <div className={`flex min-h-0 flex-1 ${showNotes ? 'flex-col lg:flex-row' : ''}`}>
          <div className="relative flex min-h-0 flex-1 items-center justify-center [touch-action:pan-y_pinch-zoom]" {...swipe} data-testid="lightbox-stage">
            <div className="relative h-full w-full">
              <img key={img.id} src={largeUrl(fileBase, img, marked)} alt={img.name} className="h-full w-full object-contain" data-testid="lightbox-image" />
              <DrawingLayer notes={drawings} fps={null} drawing={showNotes && canComment ? drawing : null} />
            </div>
            <button type="button" onClick={() => go(-1)} disabled={index === 0} aria-label="Previous image" className="absolute left-1 top-1/2 -translate-y-1/2 rounded-full bg-black/40 p-2 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-gold-400 disabled:opacity-30">
              <ChevronLeft size={28} aria-hidden="true" />
            </button>
            <button type="button" onClick={() => go(1)} disabled={index === images.length - 1} aria-label="Next image" className="absolute right-1 top-1/2 -translate-y-1/2 rounded-full bg-black/40 p-2 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-gold-400 disabled:opacity-30">
              <ChevronRight size={28} aria-hidden="true" />
            </button>
            <p className="pointer-events-none absolute bottom-2 left-3 max-w-[70%] truncate text-xs text-white/75" data-testid="lightbox-caption">
              {img.name}
              {img.capturedAt ? ` · ${formatDateTime(img.capturedAt)}` : ''}
              {img.camera ? ` · ${img.camera}` : ''}
              {img.lens ? ` · ${img.lens}` : ''}
            </p>
          </div>
          {showNotes && <NotesPanel notes={mine} canComment={canComment} drawing={drawing} onNote={(text) => onNote(img.id, text, drawing.shapes)} />}
        </div>
      </div>
      <KeysDialog open={keys} onClose={() => setKeys(false)} />
    </dialog>
  );
}

function NotesPanel({ notes, canComment, drawing, onNote }: { notes: ViewerNote[]; canComment: boolean; drawing: ReturnType<typeof useDrawing>; onNote: (text: string) => Promise<boolean> }) {
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    setPending(true);
    if (await onNote(text.trim())) {
      setText('');
      drawing.reset();
    }
    setPending(false);
  }
  return (
    <aside aria-label="Notes on this image" className="max-h-[45dvh] overflow-y-auto border-t border-white/15 bg-neutral-950 p-3 text-sm text-white lg:max-h-none lg:w-80 lg:border-l lg:border-t-0">
      {notes.length === 0 && <p className="text-white/70">No notes yet.{canComment ? ' Write one below; Draw marks the spot on the picture.' : ''}</p>}
      <ul className="space-y-3">
        {notes.map((n) => (
          <li key={n.id} className="flex gap-2">
            <div className="min-w-0 flex-1">
              <p className="font-medium">{n.author}</p>
              <p className="whitespace-pre-wrap break-words text-white/85">{n.text}</p>
              {n.shapes.length > 0 && <DrawingText shapes={n.shapes} />}
            </div>
            <ShapesPreview shapes={n.shapes} />
          </li>
        ))}
      </ul>
      {canComment && (
        <form onSubmit={submit} className="mt-4 space-y-3 rounded-md bg-white p-3 text-fg dark:bg-ink-800" aria-label="Add a note">
          <DrawingTools drawing={drawing} />
          <Textarea label="Note" rows={3} maxLength={MAX_PORTAL_TEXT} value={text} onChange={(e) => setText(e.target.value)} />
          <Button type="submit" size="sm" disabled={pending || !text.trim()}>
            Add note
          </Button>
        </form>
      )}
    </aside>
  );
}

// A proofing gallery as its viewers see it (issue 42), for a client in the portal and for a
// share link's guest alike: the cover full-bleed with the title, sets, a sticky bar with the
// hearts and the active list's count ("Picks 12 / 30 · Submit"), the justified virtual grid,
// the full-screen view, compare, downloads that follow the package (PIN first when there is
// one) and, for guests, their name before their first heart or pick.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Columns2, Download, Heart, Images, Send } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { formatDate } from '../../shared/format.ts';
import type { DownloadTier, ViewerGallery, ViewerImage } from '../../shared/schemas/proofing.ts';
import { Button, buttonClass } from '../ui/Button.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { Menu } from '../ui/Menu.tsx';
import { viewerApi } from './api.ts';
import { CompareStills } from './CompareStills.tsx';
import { NameDialog, PinDialog, SubmitDialog } from './dialogs.tsx';
import { downloadUrl, largeUrl, sizeLabel } from './files.ts';
import { JustifiedGrid } from './JustifiedGrid.tsx';
import { Lightbox } from './Lightbox.tsx';
import { StillTile } from './StillTile.tsx';
import { useGallery } from './useGallery.ts';
import { useLiveConnected, useLiveReload, usePollWhileOffline } from '../live/useLive.ts';

/** What a gallery page hears: its own changes, and an image's marked copy made (links with a watermark). */
const GALLERY_TOPICS = ['gallery', 'preview'] as const;
/** How often copies still being made are asked about while no event stream is open. */
const MARKED_POLL_MS = 5000;
/** Without an event stream, how long after starting a download the gallery is read again (what is left of the cap). */
const OFFLINE_DOWNLOAD_READ_MS = 2000;

type Size = Exclude<DownloadTier, 'off'>;
type Filter = 'all' | 'hearts' | number;

const chip = (on: boolean) =>
  `inline-flex h-9 shrink-0 items-center gap-1.5 rounded-full border px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
    on ? 'border-accent bg-accent text-accent-fg' : 'border-line bg-raised text-fg hover:bg-muted'
  }`;

/** Starts a download after asking the server whether it would be refused (PIN, cap, size). */
async function startDownload(url: string): Promise<void> {
  const sep = url.includes('?') ? '&' : '?';
  await apiJson('GET', `${url}${sep}check=1`);
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * `initialJson`: the gallery as the API answers it, as one JSON string, with the first of its
 * `total` images (the page carries 100, src/server/proofing/view.ts); the rest are fetched as
 * soon as the island starts, so a 2,000-image gallery paints its first row without 1 MB of HTML
 * before it (issue 42). `cover`: the hero's image, wherever it is in the gallery.
 */
export default function GalleryViewer({ initialJson, total, cover: pageCover, apiBase }: { initialJson: string; total: number; cover: ViewerImage | null; apiBase: string }) {
  const [initial] = useState(() => JSON.parse(initialJson) as ViewerGallery);
  const api = useMemo(() => viewerApi(apiBase), [apiBase]);
  const [askName, setAskName] = useState(false);
  const nameWaiter = useRef<((ok: boolean) => void) | null>(null);
  const [needsName, setNeedsName] = useState(initial.viewer.needsName);
  const ensureName = useCallback(() => {
    if (!needsName) return Promise.resolve(true);
    setAskName(true);
    return new Promise<boolean>((resolve) => (nameWaiter.current = resolve));
  }, [needsName]);
  const { g, setG, reload, mark, togglePick, submit } = useGallery(initial, api, ensureName);
  const [complete, setComplete] = useState(initial.images.length >= total);
  useEffect(() => {
    if (complete) return;
    let live = true;
    const fetchRest = async (attempt: number): Promise<void> => {
      try {
        // The whole gallery as it is now (copies made since the page was rendered included);
        // what the viewer did meanwhile stays (mergeView).
        await reload();
        if (!live) return;
        setComplete(true);
      } catch (e) {
        if (!live) return;
        if (attempt < 3) return void setTimeout(() => void fetchRest(attempt + 1), 1000 * 2 ** attempt);
        toast({ title: 'Not all photos loaded', description: errorMessage(e), variant: 'destructive' });
      }
    };
    void fetchRest(0);
    return () => {
      live = false;
    };
  }, [complete, reload]);
  // The page updates itself (issue 53): a watermarked copy made, and whatever the studio changes
  // in the gallery, arrive over the tab's event stream and the gallery is read again.
  const waiting = g.watermarked && g.images.some((i) => !i.ready);
  const readAgain = () => void reload().catch(() => undefined);
  useLiveReload(GALLERY_TOPICS, readAgain, (topic, data) => (topic === 'gallery' ? data.galleryId === g.id : waiting && data.status === 'done'));
  // Without a stream, copies still being made are asked about every few seconds.
  usePollWhileOffline(readAgain, MARKED_POLL_MS, { enabled: waiting, visibleOnly: true });
  const connected = useLiveConnected();

  const [setShown, setSetShown] = useState<number | 'all'>('all');
  const [filter, setFilter] = useState<Filter>('all');
  const [listId, setListId] = useState<number | null>(initial.lists[0]?.id ?? null);
  const [open, setOpen] = useState<number | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [sending, setSending] = useState(false);
  const [pinFor, setPinFor] = useState<string | null>(null);

  const list = g.lists.find((l) => l.id === listId);
  const shown = useMemo(
    () =>
      g.images.filter(
        (img) =>
          (setShown === 'all' || img.setId === setShown) &&
          (filter === 'all' || (filter === 'hearts' ? img.heart : img.picks.includes(filter))),
      ),
    [g.images, setShown, filter],
  );
  const ratios = useMemo(() => shown.map((i) => i.width / i.height), [shown]);
  const hearts = g.images.filter((i) => i.heart).length;
  const cover = g.images.find((i) => i.id === g.coverImageId) ?? (pageCover?.id === g.coverImageId ? pageCover : undefined);
  const count = complete ? g.images.length : total;
  // With no high-res downloads left, a ZIP is offered at web sizes only (a high-res one would
  // hold photos not yet counted and be refused); photos already counted stay downloadable one
  // by one in the full-screen view.
  const noneLeft = g.downloads.highResCap != null && g.downloads.highResUsed >= g.downloads.highResCap;
  const sizesOffered = useMemo(() => {
    const all = new Set<Size>();
    for (const img of shown) for (const s of img.sizes) all.add(s);
    return (['web1024', 'web2048', 'highres', 'original'] as const).filter((s) => all.has(s) && !(noneLeft && (s === 'highres' || s === 'original')));
  }, [shown, noneLeft]);

  async function download(url: string) {
    if (g.downloads.pinRequired && !g.downloads.pinOk) return setPinFor(url);
    try {
      await startDownload(url);
      // What is left of the cap comes back over the stream ('gallery', downloads); without one,
      // the gallery is read again once the download has had time to start.
      if (!connected) setTimeout(readAgain, OFFLINE_DOWNLOAD_READ_MS);
    } catch (e) {
      toast({ title: 'Not downloaded', description: errorMessage(e), variant: 'destructive' });
    }
  }
  const zipUrl = (size: Size) => {
    const scope = filter === 'hearts' ? '&hearts=1' : typeof filter === 'number' ? `&list=${filter}` : setShown !== 'all' ? `&set=${setShown}` : '';
    return `${g.zipUrl}?size=${size}${scope}`;
  };
  const scopeName = filter === 'hearts' ? 'your hearts' : typeof filter === 'number' ? `“${g.lists.find((l) => l.id === filter)?.name}”` : setShown !== 'all' ? `“${g.sets.find((s) => s.id === setShown)?.name}”` : 'all photos';

  const onCompare = useCallback((id: number) => {
    setChosen((cur) => (cur.includes(id) ? cur.filter((c) => c !== id) : [...cur.slice(-1), id]));
  }, []);
  const onHeart = useCallback((id: number) => {
    const img = g.images.find((i) => i.id === id);
    if (img) void mark(id, { heart: !img.heart });
  }, [g.images, mark]);
  const onPick = useCallback((id: number) => {
    if (listId != null) void togglePick(listId, id);
  }, [listId, togglePick]);
  const onOpen = useCallback((id: number) => setOpen(shown.findIndex((i) => i.id === id)), [shown]);
  // The full-screen view closed on this photo: its tile takes the keyboard focus back (issue 53),
  // scrolled into view and rendered first when the viewer went far from where it opened.
  const [returnTo, setReturnTo] = useState<number | null>(null);
  const returnIndex = returnTo == null ? null : shown.findIndex((i) => i.id === returnTo);
  useEffect(() => {
    if (returnTo == null) return;
    let frame = 0;
    let tries = 0;
    const focus = () => {
      const button = document.querySelector<HTMLButtonElement>(`[data-testid="still-tile"][data-image="${returnTo}"] button`);
      if (button) button.focus();
      if (button || ++tries > 60) return setReturnTo(null);
      frame = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(frame);
  }, [returnTo]);
  const pair = chosen.length === 2 ? (chosen.map((id) => g.images.find((i) => i.id === id)).filter(Boolean) as [ViewerImage, ViewerImage]) : null;

  return (
    <div className="min-h-dvh bg-bg text-fg">
      <header className="relative isolate flex min-h-[55dvh] items-end overflow-hidden bg-ink-950 text-paper-50" data-testid="gallery-hero">
        {cover && (!g.watermarked || cover.ready) && <img src={largeUrl(g.fileBase, cover, g.watermarked)} alt="" className="absolute inset-0 -z-10 h-full w-full object-cover" fetchPriority="high" decoding="async" />}
        <div className="absolute inset-0 -z-10 bg-gradient-to-t from-black/80 via-black/35 to-black/10" aria-hidden="true" />
        <div className="mx-auto w-full max-w-7xl px-4 pb-10 pt-24 sm:px-6">
          <p className="text-sm uppercase tracking-[0.2em] text-paper-200">{g.studio}</p>
          <h1 className="mt-2 font-display text-4xl font-semibold sm:text-6xl">{g.title}</h1>
          <p className="mt-3 text-sm text-paper-200">
            {count.toLocaleString('en-GB')} photo{count === 1 ? '' : 's'}
            {g.expiresOn ? ` · Open until ${formatDate(`${g.expiresOn}T12:00:00Z`)}` : ''}
          </p>
        </div>
      </header>

      <div className="sticky top-0 z-30 border-b border-line bg-bg" data-testid="gallery-bar">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-2 sm:px-6">
          {g.sets.length > 0 && (
            <div role="group" aria-label="Sets" className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1">
              <button type="button" className={chip(setShown === 'all')} aria-pressed={setShown === 'all'} onClick={() => setSetShown('all')}>
                All photos
              </button>
              {g.sets.map((s) => (
                <button key={s.id} type="button" className={chip(setShown === s.id)} aria-pressed={setShown === s.id} onClick={() => setSetShown(s.id)}>
                  {s.name}
                </button>
              ))}
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <div role="group" aria-label="Show" className="-mx-1 flex max-w-full gap-2 overflow-x-auto px-1">
              <button type="button" className={chip(filter === 'all')} aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
                <Images size={15} aria-hidden="true" /> All
              </button>
              <button type="button" className={chip(filter === 'hearts')} aria-pressed={filter === 'hearts'} onClick={() => setFilter('hearts')}>
                <Heart size={15} aria-hidden="true" /> Hearts <span className="tabular-nums">{hearts}</span>
              </button>
              {g.lists.map((l) => (
                <button key={l.id} type="button" className={chip(filter === l.id)} aria-pressed={filter === l.id} onClick={() => setFilter(l.id)}>
                  {l.name} <span className="tabular-nums">{l.count}</span>
                </button>
              ))}
            </div>
            <div className="ml-auto flex min-w-0 max-w-full flex-wrap items-center gap-2">
              {chosen.length === 1 && (
                <span className="text-sm text-fg-muted" role="status">
                  <Columns2 size={14} className="mr-1 inline" aria-hidden="true" />
                  Choose one more to compare ·{' '}
                  <button type="button" className="underline" onClick={() => setChosen([])}>
                    clear
                  </button>
                </span>
              )}
              {sizesOffered.length > 0 && (
                <Menu
                  label={`Download ${scopeName}`}
                  labelTrigger={false}
                  trigger={
                    <>
                      <Download size={16} aria-hidden="true" /> Download
                    </>
                  }
                  triggerClassName={buttonClass('outline', 'sm')}
                  panelClassName="min-w-64"
                  header={<span className="text-xs text-fg-muted">A ZIP of {scopeName}</span>}
                  items={[...sizesOffered].reverse().map((s) => ({ label: sizeLabel(s, g.highResEdge, g.watermarked), onSelect: () => void download(zipUrl(s)) }))}
                />
              )}
              {list && <PickBar list={list} lists={g.lists} onList={setListId} onSubmit={() => setSending(true)} />}
            </div>
          </div>
          {list?.reopenNote && !list.submittedAt && (
            <p className="rounded-md border border-accent/50 bg-accent/10 px-3 py-2 text-sm" role="note">
              The studio reopened “{list.name}”: {list.reopenNote}
            </p>
          )}
          {g.downloads.highResCap != null && (g.downloads.highResUsed > 0 || g.images.some((i) => i.sizes.includes('highres') || i.sizes.includes('original'))) && (
            <p className="text-xs text-fg-muted">
              High-resolution downloads: {Math.max(0, g.downloads.highResCap - g.downloads.highResUsed)} of {g.downloads.highResCap} left.
            </p>
          )}
        </div>
      </div>

      <main className="mx-auto max-w-7xl px-2 py-4 sm:px-6" id="main">
        {shown.length ? (
          <JustifiedGrid
            ratios={ratios}
            label={`${g.title}: ${shown.length} photos`}
            testId="gallery-grid"
            reveal={returnIndex != null && returnIndex >= 0 ? returnIndex : null}
            renderTile={(i, { width, row, fling }) => {
              const img = shown[i]!;
              return (
                <StillTile
                  img={img}
                  fileBase={g.fileBase}
                  marked={g.watermarked}
                  list={list}
                  width={width}
                  eager={row < 2}
                  fling={fling}
                  comparing={chosen.includes(img.id)}
                  onOpen={onOpen}
                  onHeart={onHeart}
                  onPick={onPick}
                  onCompare={onCompare}
                />
              );
            }}
          />
        ) : (
          <EmptyState
            title={filter === 'hearts' ? 'No hearts yet' : typeof filter === 'number' ? 'Nothing picked yet' : 'No photos here yet'}
            description={
              filter === 'hearts'
                ? 'Tap the heart on the photos you love; they gather here.'
                : typeof filter === 'number'
                  ? 'Tap the tick on a photo to pick it for this list.'
                  : 'The studio has not added photos to this part of the gallery yet.'
            }
            action={
              filter !== 'all' ? (
                <Button variant="outline" onClick={() => setFilter('all')}>
                  Show all photos
                </Button>
              ) : undefined
            }
          />
        )}
      </main>

      {open != null && shown[open] && (
        <Lightbox
          images={shown}
          index={open}
          fileBase={g.fileBase}
          marked={g.watermarked}
          list={list}
          notes={g.notes}
          canComment={g.canComment}
          highResEdge={g.highResEdge}
          onIndex={setOpen}
          onClose={(id) => {
            setOpen(null);
            setReturnTo(id);
          }}
          onHeart={onHeart}
          onStars={(id, stars) => void mark(id, { stars })}
          onPick={onPick}
          onDownload={(img, size) => void download(downloadUrl(g.fileBase, img.id, size))}
          onNote={async (id, text, shapes) => {
            if (!(await ensureName())) return false;
            try {
              const note = await api.note(id, { text, shapes });
              setG((cur) => ({ ...cur, notes: [...cur.notes, note] }));
              toast({ title: 'Note added', description: 'The studio has been told.' });
              return true;
            } catch (e) {
              toast({ title: 'Note not added', description: errorMessage(e), variant: 'destructive' });
              return false;
            }
          }}
        />
      )}
      {pair && <CompareStills pair={pair} fileBase={g.fileBase} marked={g.watermarked} list={list} onClose={() => setChosen([])} onHeart={onHeart} onPick={onPick} />}
      <SubmitDialog list={sending ? (list ?? null) : null} onClose={() => setSending(false)} onSubmit={() => (list ? submit(list.id) : Promise.resolve(false))} />
      <PinDialog
        open={pinFor != null}
        onClose={() => setPinFor(null)}
        onPin={async (pin) => {
          await api.pin(pin);
          setG((cur) => ({ ...cur, downloads: { ...cur.downloads, pinOk: true } }));
          const url = pinFor;
          setPinFor(null);
          toast({ title: 'Downloads unlocked' });
          if (url) await startDownload(url).catch((e) => toast({ title: 'Not downloaded', description: errorMessage(e), variant: 'destructive' }));
        }}
      />
      <NameDialog
        open={askName}
        onClose={() => {
          setAskName(false);
          nameWaiter.current?.(false);
          nameWaiter.current = null;
        }}
        onSave={async (name, email) => {
          await api.name({ name, email });
          setNeedsName(false);
          setG((cur) => ({ ...cur, viewer: { ...cur.viewer, name, email, needsName: false } }));
          setAskName(false);
          nameWaiter.current?.(true);
          nameWaiter.current = null;
        }}
      />
    </div>
  );
}

/** "Picks 12 / 30 · Submit" for the list the P key and the tiles pick into. */
function PickBar({ list, lists, onList, onSubmit }: { list: NonNullable<ViewerGallery['lists'][number]>; lists: ViewerGallery['lists']; onList: (id: number) => void; onSubmit: () => void }) {
  const full = list.maxCount != null && list.count >= list.maxCount;
  return (
    <div className="flex min-w-0 max-w-full items-center gap-2 rounded-full border border-line bg-raised py-1 pl-3 pr-1 text-sm" data-testid="pick-bar">
      {lists.length > 1 ? (
        <label className="flex items-center gap-1">
          <span className="sr-only">List to pick into</span>
          <select value={list.id} onChange={(e) => onList(Number(e.target.value))} className="max-w-36 truncate bg-transparent font-medium">
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <span className="min-w-0 max-w-40 truncate font-medium" title={list.name}>
          {list.name}
        </span>
      )}
      <span className={`whitespace-nowrap tabular-nums ${full ? 'font-semibold text-accent' : ''}`} data-testid="pick-count" aria-label={`${list.count} picked${list.maxCount != null ? ` of ${list.maxCount}` : ''}`}>
        Picks {list.count}
        {list.maxCount != null ? ` / ${list.maxCount}` : ''}
      </span>
      {list.submittedAt ? (
        <span className="rounded-full bg-muted px-3 py-1 text-xs font-medium" data-testid="submitted">
          Sent {formatDate(list.submittedAt)}
        </span>
      ) : (
        <Button size="sm" className="shrink-0 whitespace-nowrap rounded-full" onClick={onSubmit} disabled={!list.count}>
          <Send size={14} aria-hidden="true" /> Submit
        </Button>
      )}
    </div>
  );
}

import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Layers, Upload } from 'lucide-react';
import type { AdminFeedback, AdminMedia, AdminTimelineNote } from '../../../shared/schemas/media.ts';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { toast } from '../../../shared/toast.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Select } from '../../ui/Select.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { BulkDialog } from './BulkDialog.tsx';
import { DetailDialog, type DetailTab } from './DetailDialog.tsx';
import { LibrarySearch } from '../../review/LibrarySearch.tsx';
import type { OpenAt } from '../../review/open-at.ts';
import { VersionUploadDialog } from './VersionUploadDialog.tsx';
import { APPROVAL_FILTERS } from '../../../shared/schemas/review.ts';
import { EditDialog } from './EditDialog.tsx';
import { EMPTY_FILTERS, buildSearchIndex, clientsWithMedia, filterMedia, isFiltered, tagsInUse, type MediaFilters, type RoundLists } from './filtering.ts';
import { stageOptions } from '../../../shared/stages.ts';
import { MediaCard, type CardAction } from './MediaCard.tsx';
import { deleteMedia, fetchClients, fetchFeedback, fetchMedia, fetchTimelineNotes, type ClientOption } from './media-api.ts';
import { UploadDialog } from './UploadDialog.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { $finished } from '../uploads/queue.ts';
import { useLiveReload } from '../../live/useLive.ts';
import { dragsFiles, droppedFiles } from '../uploads/dropped-files.ts';

/** Cards rendered per step; more appear as the sentinel scrolls into view. */
const PAGE = 60;

/** Media Management (001 §2). Permissions come from the server-rendered page. */
export default function MediaManager({ permissions, userId }: { permissions: string[]; userId: string }) {
  const canUpload = permissions.includes('upload:media');
  const canShare = permissions.includes('share:media');
  const canEdit = permissions.includes('edit:media');
  const canAssign = permissions.includes('assign:client');
  const canViewClients = permissions.includes('view:clients');

  const [items, setItems] = useState<AdminMedia[] | null>(null);
  const [clients, setClients] = useState<ClientOption[]>([]);
  const [feedback, setFeedback] = useState<AdminFeedback[] | null>(null);
  const [notes, setNotes] = useState<AdminTimelineNote[] | null>(null);
  const [filters, setFilters] = useState<MediaFilters>(EMPTY_FILTERS);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [limit, setLimit] = useState(PAGE);
  const [uploadOpen, setUploadOpen] = useState(false);
  // The dialog's auto-close after its uploads finished runs in an effect keyed on this.
  const closeUpload = useCallback(() => {
    setUploadOpen(false);
    setDropped(null);
  }, []);
  const [dropped, setDropped] = useState<File[] | null>(null);
  const [dragging, setDragging] = useState(false);

  // Files dragged anywhere over the page can be dropped to upload (issue 32).
  useEffect(() => {
    if (!canUpload) return;
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!dragsFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!dragsFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (!dragsFiles(e)) return;
      // Without this the browser would open the file in place of the page.
      e.preventDefault();
      e.dataTransfer!.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!dragsFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      droppedFiles(e.dataTransfer!).then(
        (files) => {
          if (!files.length) return toast({ title: 'Nothing to upload', description: 'The dropped folder holds no images or videos.', variant: 'destructive' });
          setDropped(files);
          setUploadOpen(true);
        },
        (err) => toast({ title: 'Could not read the dropped files', description: errorMessage(err), variant: 'destructive' }),
      );
    };
    addEventListener('dragenter', enter);
    addEventListener('dragleave', leave);
    addEventListener('dragover', over);
    addEventListener('drop', drop);
    return () => {
      removeEventListener('dragenter', enter);
      removeEventListener('dragleave', leave);
      removeEventListener('dragover', over);
      removeEventListener('drop', drop);
    };
  }, [canUpload]);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [editId, setEditId] = useState<number | null>(null);
  const [detail, setDetail] = useState<{ id: number; tab: DetailTab; compare?: string | null; openAt?: OpenAt | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminMedia | null>(null);
  const [versionFor, setVersionFor] = useState<AdminMedia | null>(null);
  // Stable for the same reason as closeUpload.
  const closeVersion = useCallback(() => setVersionFor(null), []);
  const [deletePending, setDeletePending] = useState(false);

  const reload = useCallback(async () => {
    try {
      const list = await fetchMedia();
      setItems(list);
      setSelected((s) => {
        const ids = new Set(list.map((m) => m.id));
        const next = new Set([...s].filter((id) => ids.has(id)));
        return next.size === s.size ? s : next;
      });
    } catch (e) {
      setItems((cur) => cur ?? []);
      toast({ title: 'Failed to load media', description: errorMessage(e), variant: 'destructive' });
    }
  }, []);

  // Uploads finish in the background (the tray), perhaps while this page was away: each one
  // that became an item or a version reloads the list, and with it an open detail dialog.
  useEffect(() => $finished.listen(() => void reload()), [reload]);
  // Live (issue 41): what others do (a client's note, a decision, a new version, a conversion
  // finishing, an item added on another screen) shows here without a reload. Progress ticks
  // are the cards' own (useProcessingPoll); a change of status reloads the list.
  useLiveReload(['media', 'version', 'approval', 'assignment', 'processing', 'note', 'feedback'], () => void reload(), (topic, data) => topic !== 'processing' || data.status === 'ready' || data.status === 'failed');
  const reviewsLoaded = feedback !== null || notes !== null;
  useLiveReload(['note', 'feedback', 'reply'], () => loadReviews(), () => true, reviewsLoaded);

  const loadReviews = useCallback(() => {
    fetchFeedback().then(setFeedback, () => setFeedback([]));
    fetchTimelineNotes().then(setNotes, () => setNotes([]));
  }, []);

  useEffect(() => {
    void reload();
    // Clients are only needed for pickers and the filter; without view:clients the list stays
    // empty, and is not asked for (a 403 in every custom role's console, issue 53).
    if (canViewClients) fetchClients().then(setClients, () => setClients([]));
    // ?upload=true opens the upload dialog, then the URL goes back to /admin/media (001 §2).
    const params = new URLSearchParams(location.search);
    // ?approval=awaiting (the dashboard's card) opens the list on that filter.
    const approval = APPROVAL_FILTERS.find((a) => a.value === params.get('approval'));
    if (approval) setFilters((f) => ({ ...f, approval: approval.value }));
    // ?item={id} (links in notification emails and the bell) opens that item's details.
    const item = Number(params.get('item'));
    if (Number.isSafeInteger(item) && item > 0) {
      // The feedback tab reads the review lists, which a card's own button loads first.
      loadReviews();
      // &compare=2,3 opens those two versions in the compare view (issue 30).
      // &at={ms} (a mention's email or bell line, issue 57): the player opens on the note's frame.
      const at = Number(params.get('at'));
      const openAt = params.has('at') && Number.isSafeInteger(at) && at >= 0 ? { versionId: null, ms: at } : null;
      setDetail({ id: item, tab: 'feedback', compare: params.get('compare'), openAt });
      history.replaceState(history.state, '', '/admin/media');
    }
    if (params.get('upload') === 'true') {
      if (canUpload) setUploadOpen(true);
      history.replaceState(history.state, '', '/admin/media');
    }
  }, [reload, canUpload, canViewClients, loadReviews]);

  const index = useMemo(() => buildSearchIndex(items ?? []), [items]);
  // Typing stays responsive: the grid re-filters with the deferred value.
  const deferredFilters = useDeferredValue(filters);
  // Review rounds waiting on this user, or overdue (issue 57): asked again whenever the list changes.
  const [rounds, setRounds] = useState<RoundLists | undefined>(undefined);
  useEffect(() => {
    if (!items) return;
    apiJson<{ waitingOnMe: number[]; overdue: number[] }>('GET', '/api/rounds/mine').then(
      (r) => setRounds({ waitingOnMe: new Set(r.waitingOnMe), overdue: new Set(r.overdue) }),
      () => setRounds(undefined),
    );
  }, [items]);
  const filtered = useMemo(() => filterMedia(items ?? [], deferredFilters, index, rounds), [items, deferredFilters, index, rounds]);
  const stale = deferredFilters !== filters;
  useEffect(() => setLimit(PAGE), [deferredFilters]);

  const clientNames = useMemo(() => new Map(clients.map((c) => [c.id, c.name])), [clients]);
  const clientFilterOptions = useMemo(() => clientsWithMedia(items ?? [], clientNames), [items, clientNames]);
  const tagOptions = useMemo(() => tagsInUse(items ?? []), [items]);
  const stageFilter = useMemo(() => stageOptions((items ?? []).map((m) => m.projectStage)), [items]);

  const sentinel = useRef<HTMLDivElement>(null);
  const hasMore = filtered.length > limit;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setLimit((l) => l + PAGE);
    }, { rootMargin: '800px 0px' });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, limit]);

  const toggleSelect = useCallback((id: number) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const onAction = useCallback(
    (action: CardAction, item: AdminMedia) => {
      if (action === 'edit') return setEditId(item.id);
      if (action === 'delete') return setDeleting(item);
      if (action === 'version') return setVersionFor(item);
      if (action === 'share') return location.assign(`/admin/share-links?media=${item.id}`);
      if (action === 'feedback') loadReviews();
      setDetail({ id: item.id, tab: action });
    },
    [loadReviews],
  );

  const byId = (id: number | null | undefined) => (id == null ? null : (items?.find((m) => m.id === id) ?? null));
  const selectedItems = useMemo(() => (items ?? []).filter((m) => selected.has(m.id)), [items, selected]);

  async function confirmDelete() {
    if (!deleting) return;
    setDeletePending(true);
    const ok = await deleteMedia(deleting.id);
    setDeletePending(false);
    if (ok) {
      if (detail?.id === deleting.id) setDetail(null);
      setDeleting(null);
      await reload();
    }
  }

  const setFilter = <K extends keyof MediaFilters>(k: K, v: MediaFilters[K]) => setFilters((f) => ({ ...f, [k]: v }));
  const total = items?.length ?? 0;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Media Management</h1>
          <p className="mt-1 text-fg-muted">Upload, organise and share your images and videos</p>
        </div>
        {canUpload && (
          <Button onClick={() => setUploadOpen(true)}>
            <Upload size={16} aria-hidden="true" /> Upload Media
          </Button>
        )}
      </div>

      {/* The page needs view:media, as GET /api/search does. */}
      <LibrarySearch
        endpoint="/api/search"
        onOpen={(hit) => {
          loadReviews();
          setDetail({ id: hit.mediaId, tab: 'feedback', openAt: { versionId: hit.versionId, ms: hit.atMs } });
        }}
      />

      <section aria-label="Search and filters" className="space-y-3 rounded-xl border border-line bg-raised p-4 shadow-sm">
        <SearchInput
          label="Search media"
          placeholder="Search by title, tags, stage or notes..."
          value={filters.search}
          onValueChange={(v) => setFilter('search', v)}
          className="h-10"
        />
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          <Select
            label="Type"
            hideLabel
            value={filters.type}
            onChange={(e) => setFilter('type', e.target.value as MediaFilters['type'])}
            options={[
              { value: 'all', label: 'All types' },
              { value: 'featured', label: 'Featured' },
              { value: 'portfolio', label: 'Portfolio' },
              { value: 'image', label: 'Images' },
              { value: 'video', label: 'Videos' },
            ]}
          />
          <Select
            label="Client"
            hideLabel
            value={filters.client}
            onChange={(e) => setFilter('client', e.target.value)}
            options={[{ value: 'all', label: 'All clients' }, { value: 'unassigned', label: 'Unassigned' }, ...clientFilterOptions.map((c) => ({ value: String(c.id), label: c.name }))]}
          />
          <Select
            label="Tag"
            hideLabel
            value={filters.tag}
            onChange={(e) => setFilter('tag', e.target.value)}
            options={[{ value: 'all', label: 'All tags' }, ...tagOptions.map((t) => ({ value: t, label: t }))]}
          />
          <Select
            label="Stage"
            hideLabel
            value={filters.stage}
            onChange={(e) => setFilter('stage', e.target.value)}
            options={[{ value: 'all', label: 'All stages' }, { value: 'none', label: 'No stage' }, ...stageFilter]}
          />
          <Select
            label="Approval"
            hideLabel
            value={filters.approval}
            onChange={(e) => setFilter('approval', e.target.value as MediaFilters['approval'])}
            options={[{ value: 'all', label: 'Any approval' }, ...APPROVAL_FILTERS.map((a) => ({ value: a.value, label: a.label }))]}
          />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Button variant="outline" size="sm" onClick={() => setFilters(EMPTY_FILTERS)} disabled={!isFiltered(filters)}>
            Clear Filters
          </Button>
          <span className="mx-1 h-5 w-px bg-line" aria-hidden="true" />
          <Button variant="outline" size="sm" onClick={() => setSelected(new Set(filtered.map((m) => m.id)))} disabled={filtered.length === 0}>
            Select All
          </Button>
          <Button variant="outline" size="sm" onClick={() => setSelected(new Set())} disabled={selected.size === 0}>
            Clear Selection
          </Button>
          <span className="text-fg-muted" data-testid="selected-count" aria-live="polite">
            {`${selected.size} selected`}
          </span>
          <Button size="sm" className="ml-auto" onClick={() => setBulkOpen(true)} disabled={selected.size === 0}>
            <Layers size={16} aria-hidden="true" /> Bulk Actions
          </Button>
        </div>
        <p className="text-xs text-fg-muted" data-testid="media-count" aria-live="polite">
          {items ? `Showing ${filtered.length} of ${total} items` : 'Loading media…'}
        </p>
      </section>

      {items === null ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-busy="true" aria-label="Loading media">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="overflow-hidden rounded-xl border border-line bg-raised" data-testid="media-skeleton">
              <Skeleton className="aspect-video rounded-none" />
              <div className="space-y-2 p-3">
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="h-3 w-1/2" />
                <Skeleton className="h-3 w-1/3" />
              </div>
            </div>
          ))}
        </div>
      ) : filtered.length === 0 ? (
        <EmptyState
          title="No media found"
          description={total === 0 ? 'Upload your first image or video to get started.' : 'No media matches your search or filters.'}
          action={
            total === 0 ? (
              canUpload && (
                <Button onClick={() => setUploadOpen(true)}>
                  <Upload size={16} aria-hidden="true" /> Upload your first file
                </Button>
              )
            ) : (
              <Button variant="outline" onClick={() => setFilters(EMPTY_FILTERS)}>
                Clear Filters
              </Button>
            )
          }
        />
      ) : (
        <>
          <h2 className="sr-only">Media library</h2>
          <ul className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 ${stale ? 'opacity-70' : ''}`} aria-label="Media" data-testid="media-grid">
            {filtered.slice(0, limit).map((m) => (
              <li key={m.id} className="flex [contain-intrinsic-size:auto_340px] [content-visibility:auto]">
                <MediaCard item={m} selected={selected.has(m.id)} canEdit={canEdit} canAssign={canAssign} canUpload={canUpload} canShare={canShare} onToggleSelect={toggleSelect} onAction={onAction} />
              </li>
            ))}
          </ul>
          {hasMore && (
            <div ref={sentinel} className="flex justify-center py-4">
              <Button variant="outline" onClick={() => setLimit((l) => l + PAGE)}>
                {`Load more (${filtered.length - limit} more)`}
              </Button>
            </div>
          )}
        </>
      )}

      <UploadDialog open={uploadOpen} onClose={closeUpload} clients={clients} initialFiles={dropped} canPublish={canEdit} userId={userId} />
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-[60] flex items-center justify-center bg-bg/80 p-6 backdrop-blur-sm" data-testid="drop-overlay">
          <div className="rounded-2xl border-2 border-dashed border-accent bg-raised px-10 py-8 text-center shadow-2xl">
            <Upload size={32} aria-hidden="true" className="mx-auto text-accent" />
            <p className="mt-3 text-lg font-semibold">Drop files to upload</p>
            <p className="mt-1 text-sm text-fg-muted">Images, videos and whole folders</p>
          </div>
        </div>
      )}
      <EditDialog item={byId(editId)} clients={clients} onClose={() => setEditId(null)} onSaved={reload} />
      {/* Bulk assignment PUTs each item, so it needs edit:media as well as assign:client. */}
      <BulkDialog open={bulkOpen} items={selectedItems} clients={clients} canAssign={canAssign && canEdit} onClose={() => setBulkOpen(false)} onDone={reload} />
      <DetailDialog
        item={byId(detail?.id)}
        tab={detail?.tab ?? 'feedback'}
        onTab={(tab) => {
          if (tab === 'feedback') loadReviews();
          // The address's compare request is used once: not again when the tab comes back.
          setDetail((d) => (d ? { ...d, tab, compare: null } : d));
        }}
        feedback={feedback}
        notes={notes}
        clients={clients}
        canEdit={canEdit}
        canAssign={canAssign}
        canUpload={canUpload}
        onReviewsChanged={loadReviews}
        onUploadVersion={setVersionFor}
        onClose={() => setDetail(null)}
        onChanged={reload}
        onDelete={setDeleting}
        compare={detail?.compare ?? null}
        openAt={detail?.openAt ?? null}
      />
      <VersionUploadDialog item={versionFor} onClose={closeVersion} />
      <ConfirmDialog
        open={!!deleting}
        title="Delete Media"
        message="Are you sure you want to delete this media item?"
        pending={deletePending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

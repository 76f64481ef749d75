import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { Bell, Clock, Download, FolderOpen, Image as ImageIcon, ListChecks, LogOut, Mail, MapPin, Phone, Radio, Search, ShieldCheck, Video } from 'lucide-react';
import { apiJson } from '../../shared/api.ts';
import { postLogout } from '../../shared/logout.ts';
import { telHref } from '../../shared/phone.ts';
import type { ClientMedia } from '../../shared/schemas/portal.ts';
import { stageOptions } from '../../shared/stages.ts';
import { toast } from '../../shared/toast.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { Select } from '../ui/Select.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { MediaCard } from './MediaCard.tsx';
import { MediaDetailDialog } from './MediaDetailDialog.tsx';
import { downloadAll } from './downloads.ts';
import { isRecent } from './format.ts';
import { $media, $mediaError, clearPortalCache, loadFeedback, loadMedia, loadNotes } from './store.ts';
import { SearchInput } from '../ui/SearchInput.tsx';
import { NotifyModeDialog } from '../notifications/NotifyModeDialog.tsx';
import { useLiveReload } from '../live/useLive.ts';
import { signOutLive } from '../live/channel.ts';
import { $live } from '../live/channel.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { LibrarySearch } from '../review/LibrarySearch.tsx';
import type { OpenAt } from '../review/open-at.ts';

// Loaded when opened (issue 56): most visits never change how they sign in.
const SecurityPanel = lazy(() => import('../account/SecurityPanel.tsx'));

export interface PortalProfile {
  id: number;
  username: string;
  name: string;
  email: string;
}

export interface PortalContact {
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
}

/** Loading skeleton count for media cards (001 §9). */
const SKELETON_CARDS = 8;


function matches(item: ClientMedia, query: string, stage: string): boolean {
  if (stage !== 'all' && item.projectStage !== stage) return false;
  if (!query) return true;
  const q = query.toLowerCase();
  return [item.title, item.filename, item.notes ?? '', ...item.tags].some((s) => s.toLowerCase().includes(q));
}

export default function PortalDashboard({
  profile,
  contact,
  themeToggle,
  galleries,
}: {
  profile: PortalProfile;
  contact: PortalContact;
  /** The theme toggle, an island of its own passed in by the page (src/pages/client/dashboard.astro). */
  themeToggle?: ReactNode;
  /** The proofing galleries shared with the client (issue 42), rendered by the page: plain links, no script. */
  galleries?: ReactNode;
}) {
  const media = useStore($media);
  const loadError = useStore($mediaError);
  const [query, setQuery] = useState('');
  const [stage, setStage] = useState('all');
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [openId, setOpenId] = useState<number | null>(null);
  // Opened from the live banner (issue 41): the dialog joins the session at once.
  const [joinLive, setJoinLive] = useState(false);
  const liveSessions = useStore($live).sessions;
  // ?compare=2,3 beside ?item= (issue 30): that item opens in the compare view.
  const [compareRequest, setCompareRequest] = useState<string | null>(null);
  // A search hit (issue 54): the dialog opens on its version, paused at its moment.
  const [openAt, setOpenAt] = useState<OpenAt | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const [notifyOpen, setNotifyOpen] = useState(false);
  const [securityOpen, setSecurityOpen] = useState(false);

  useEffect(() => {
    // ?item={id} (the link in notification emails) opens that item once the list is here.
    const params = new URLSearchParams(location.search);
    const item = Number(params.get('item'));
    if (Number.isSafeInteger(item) && item > 0) {
      setOpenId(item);
      setCompareRequest(params.get('compare'));
      // &at={ms} (a mention's email, issue 57): the player opens on the note's frame.
      const at = Number(params.get('at'));
      if (params.has('at') && Number.isSafeInteger(at) && at >= 0) setOpenAt({ versionId: null, ms: at });
      history.replaceState(history.state, '', location.pathname);
    }
    void loadMedia();
    void loadFeedback();
    void loadNotes();
  }, []);
  // Live (issue 41): the studio's notes and replies, decisions, new versions, items given or
  // taken away, conversions finishing, all without a reload.
  useLiveReload(['media', 'version', 'approval', 'assignment', 'processing', 'preview'], () => void loadMedia(), (topic, data) => topic !== 'processing' || data.status === 'ready' || data.status === 'failed');
  useLiveReload(['note', 'reply'], () => void loadNotes());
  useLiveReload(['feedback', 'reply'], () => void loadFeedback());

  const all = media ?? [];
  const filtered = useMemo(() => all.filter((m) => matches(m, query.trim(), stage)), [all, query, stage]);
  const stageFilter = useMemo(() => [{ value: 'all', label: 'All stages' }, ...stageOptions(all.map((m) => m.projectStage))], [all]);
  const stats = useMemo(
    () => ({
      total: all.length,
      recent: all.filter((m) => isRecent(m.createdAt)).length,
      videos: all.filter((m) => m.type === 'video').length,
      images: all.filter((m) => m.type === 'image').length,
    }),
    [all],
  );
  // Items whose review stage waits on this login's decision (issue 57), asked again when the list changes.
  const [waiting, setWaiting] = useState<number[]>([]);
  useEffect(() => {
    if (!media) return;
    apiJson<{ waitingOnMe: number[] }>('GET', '/api/client/rounds/mine').then(
      (r) => setWaiting(r.waitingOnMe),
      () => setWaiting([]),
    );
  }, [media]);
  const waitingItems = all.filter((m) => waiting.includes(m.id));
  const allFilteredSelected = filtered.length > 0 && filtered.every((m) => selected.has(m.id));
  const openItem = all.find((m) => m.id === openId) ?? null;

  function toggle(id: number, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function toggleAll(on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      for (const m of filtered) {
        if (on) next.add(m.id);
        else next.delete(m.id);
      }
      return next;
    });
  }

  function downloadSelected() {
    const items = all.filter((m) => selected.has(m.id));
    if (items.length === 0) {
      toast({ title: 'No items selected', description: 'Select the media you want to download first.' });
      return;
    }
    // Items whose downloads wait for approval (issue 30) are left out, and the client is told.
    const ready = items.filter((m) => m.downloadUrl);
    const waiting = items.length - ready.length;
    if (waiting) toast({ title: `${waiting} of ${items.length} not downloaded`, description: items.find((m) => !m.downloadUrl)?.downloadBlockedReason ?? 'No download is offered for it.' });
    downloadAll(ready);
  }

  async function logout() {
    setLoggingOut(true);
    // 001 §4: logout always ends here, like staff logout (src/shared/logout.ts): a failed
    // call still clears the cached data and leaves the portal.
    // Nothing reloads for this client from here on (a live event during the logout would).
    signOutLive();
    await postLogout('/api/client/logout').catch(() => undefined);
    clearPortalCache();
    window.location.assign('/client/login');
  }

  return (
    <div className="min-h-dvh">
      <header className="border-b border-line bg-raised">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
          <div className="min-w-0">
            <p className="text-xs font-medium uppercase tracking-wider text-fg-muted">Client Portal</p>
            <h1 className="truncate text-xl font-semibold sm:text-2xl">Welcome back, {profile.username}</h1>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {themeToggle}
            <Button variant="outline" onClick={() => setNotifyOpen(true)}>
              <Bell size={16} aria-hidden="true" />
              Notifications
            </Button>
            <Button variant="outline" onClick={() => setSecurityOpen(true)}>
              <ShieldCheck size={16} aria-hidden="true" />
              Security
            </Button>
            <Button variant="outline" onClick={logout} disabled={loggingOut}>
              <LogOut size={16} aria-hidden="true" />
              {loggingOut ? 'Logging out...' : 'Logout'}
            </Button>
          </div>
        </div>
      </header>

      <main className="mx-auto max-w-7xl space-y-8 px-4 py-8 sm:px-6">
        {liveSessions.map((ls) => {
          const m = all.find((x) => x.id === ls.mediaId);
          return m ? (
            <div key={ls.id} role="region" aria-label="Live review" data-testid="portal-live-banner" className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-accent/60 bg-accent/10 p-4 text-sm">
              <p className="flex items-center gap-2">
                <Radio size={18} aria-hidden="true" className="text-accent" />
                <span>
                  <span className="font-semibold">{`Live review of “${m.title}”`}</span>
                  {` is on now, presented by ${ls.presenterName}.`}
                </span>
              </p>
              <Button
                onClick={() => {
                  setJoinLive(true);
                  setOpenId(m.id);
                }}
              >
                Join live review
              </Button>
            </div>
          ) : null;
        })}
        {waitingItems.length > 0 && (
          <section aria-labelledby="waiting-heading" data-testid="portal-waiting" className="space-y-2 rounded-xl border border-accent/60 bg-accent/10 p-4 text-sm">
            <h2 id="waiting-heading" className="flex items-center gap-2 font-semibold">
              <ListChecks size={18} aria-hidden="true" className="text-accent" />
              {`Waiting on your decision (${waitingItems.length})`}
            </h2>
            <ul className="flex flex-wrap gap-2">
              {waitingItems.map((m) => (
                <li key={m.id}>
                  <Button size="sm" variant="outline" onClick={() => setOpenId(m.id)} aria-label={`Review ${m.title}`}>
                    {m.title}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-label="Summary" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard label="Total Media" value={media ? stats.total : null} icon={<FolderOpen size={20} />} />
          <StatCard label="Recent Uploads" value={media ? stats.recent : null} icon={<Clock size={20} />} hint="Last 7 days" />
          <StatCard label="Videos" value={media ? stats.videos : null} icon={<Video size={20} />} />
          <StatCard label="Images" value={media ? stats.images : null} icon={<ImageIcon size={20} />} />
        </section>

        {galleries}

        <section aria-labelledby="your-media" className="space-y-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="your-media" className="text-lg font-semibold">
              Your Media
            </h2>
            <Button onClick={downloadSelected} variant="primary">
              <Download size={16} aria-hidden="true" />
              Download Selected{selected.size ? ` (${selected.size})` : ''}
            </Button>
          </div>

          <LibrarySearch
            endpoint="/api/client/search"
            onOpen={(hit) => {
              setOpenAt({ versionId: hit.versionId, ms: hit.atMs });
              setOpenId(hit.mediaId);
            }}
          />

          <div className="grid gap-3 sm:grid-cols-[1fr_14rem]">
            <SearchInput id="portal-search" label="Search media" value={query} onValueChange={setQuery} placeholder="Search media..." className="h-10" />
            <Select label="Filter by stage" hideLabel options={stageFilter} value={stage} onChange={(e) => setStage(e.target.value)} />
          </div>

          <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <label className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                checked={allFilteredSelected}
                disabled={filtered.length === 0}
                onChange={(e) => toggleAll(e.target.checked)}
                className="h-4 w-4 accent-[var(--accent)]"
              />
              Select all
            </label>
            {media && (
              <p className="text-fg-muted" aria-live="polite">
                Showing {filtered.length} of {all.length} items
              </p>
            )}
          </div>

          {loadError && !media ? (
            <EmptyState
              title="We couldn't load your media"
              description={loadError}
              action={
                <Button variant="outline" onClick={() => void loadMedia()}>
                  Try again
                </Button>
              }
            />
          ) : !media ? (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-busy="true" aria-label="Loading media">
              {Array.from({ length: SKELETON_CARDS }, (_, i) => (
                <li key={i} className="overflow-hidden rounded-xl border border-line bg-raised">
                  <Skeleton className="aspect-video rounded-none" />
                  <div className="space-y-2 p-3">
                    <Skeleton className="h-4 w-3/4" />
                    <Skeleton className="h-3 w-1/2" />
                  </div>
                </li>
              ))}
            </ul>
          ) : all.length === 0 ? (
            <EmptyState
              icon={<FolderOpen size={32} aria-hidden="true" />}
              title="No media assigned yet"
              description="Your project manager will share your media here as soon as it is ready."
            />
          ) : filtered.length === 0 ? (
            <EmptyState
              icon={<Search size={32} aria-hidden="true" />}
              title="No media matches your search"
              description="Try another search term or stage."
              action={
                <Button
                  variant="outline"
                  onClick={() => {
                    setQuery('');
                    setStage('all');
                  }}
                >
                  Clear filters
                </Button>
              }
            />
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Media">
              {filtered.map((m) => (
                <MediaCard key={m.id} item={m} selected={selected.has(m.id)} onToggle={(on) => toggle(m.id, on)} onOpen={() => {
                    setOpenId(m.id);
                    setCompareRequest(null);
                  }}
                />
              ))}
            </ul>
          )}
        </section>

        <NeedHelp contact={contact} />
      </main>

      <MediaDetailDialog
        key={openItem?.id ?? 'closed'}
        item={openItem}
        compare={compareRequest}
        joinLive={joinLive}
        openAt={openAt}
        onClose={() => {
          setOpenId(null);
          setOpenAt(null);
          setCompareRequest(null);
          setJoinLive(false);
        }}
      />
      <NotifyModeDialog
        open={notifyOpen}
        onClose={() => setNotifyOpen(false)}
        endpoint="/api/client/notifications"
        about="Emails when the studio shares new media with you or adds a new version."
      />
      <Dialog open={securityOpen} onClose={() => setSecurityOpen(false)} title="Security" description="Sign in with a code from your phone as well as your password, so a stolen password alone cannot open your portal.">
        <Suspense fallback={<Spinner label="Loading" className="py-8" />}>
          <SecurityPanel base="/api/client/second-factor" accountName={profile.username} />
        </Suspense>
      </Dialog>
    </div>
  );
}

function StatCard({ label, value, icon, hint }: { label: string; value: number | null; icon: ReactNode; hint?: string }) {
  return (
    <Card className="p-4">
      <div className="flex items-start justify-between gap-2">
        <p className="text-sm text-fg-muted">{label}</p>
        <span className="text-accent" aria-hidden="true">
          {icon}
        </span>
      </div>
      {value === null ? (
        <Skeleton className="mt-2 h-8 w-12" />
      ) : (
        <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          {value}
        </p>
      )}
      {hint && <p className="text-xs text-fg-muted">{hint}</p>}
    </Card>
  );
}

function NeedHelp({ contact }: { contact: PortalContact }) {
  const has = contact.contactEmail || contact.contactPhone || contact.contactAddress;
  return (
    <section aria-labelledby="need-help" className="rounded-xl border border-line bg-raised p-5">
      <h2 id="need-help" className="text-lg font-semibold">
        Need Help?
      </h2>
      <p className="mt-1 text-sm text-fg-muted">Questions about your media or need something changed? Get in touch with your project team.</p>
      {has ? (
        <ul className="mt-4 grid gap-3 text-sm sm:grid-cols-3">
          {contact.contactEmail && (
            <li className="flex items-center gap-2">
              <Mail size={16} aria-hidden="true" className="shrink-0 text-accent" />
              <a href={`mailto:${contact.contactEmail}`} className="break-all underline-offset-4 hover:underline">
                {contact.contactEmail}
              </a>
            </li>
          )}
          {contact.contactPhone && (
            <li className="flex items-center gap-2">
              <Phone size={16} aria-hidden="true" className="shrink-0 text-accent" />
              <a href={telHref(contact.contactPhone) ?? undefined} className="underline-offset-4 hover:underline">
                {contact.contactPhone}
              </a>
            </li>
          )}
          {contact.contactAddress && (
            <li className="flex items-start gap-2">
              <MapPin size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-accent" />
              <span className="whitespace-pre-line">{contact.contactAddress}</span>
            </li>
          )}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-fg-muted">Contact your project manager for help.</p>
      )}
    </section>
  );
}

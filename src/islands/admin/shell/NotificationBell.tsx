import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Bell, CheckCircle2, MessageSquare, MessageSquareText, Settings, X } from 'lucide-react';
import { apiJson, errorMessage } from '../../../shared/api.ts';
import { formatDateTime, formatTimestamp } from '../../../shared/format.ts';
import type { BellAnswer, BellEvent, NotifyMode } from '../../../shared/schemas/notifications.ts';
import { useHydrated } from '../../ui/hydration.ts';
import { NotifyModeDialog, STAFF_NOTIFY_ABOUT } from '../../notifications/NotifyModeDialog.tsx';
import { useLiveReload, usePollWhileOffline } from '../../live/useLive.ts';

/**
 * How often an open admin page asks for new events while its live stream is not open (also on
 * focus and when the tab shows); with the stream, each new event arrives at once (issue 41).
 */
export const BELL_POLL_MS = 20_000;

const ICONS: Record<string, typeof Bell> = { feedback: MessageSquare, note: MessageSquareText, approval: CheckCircle2 };

const ASK_ANSWERS: { mode: NotifyMode; label: string }[] = [
  { mode: 'immediately', label: 'Immediately' },
  { mode: 'digest', label: 'Daily digest' },
  { mode: 'off', label: 'No thanks' },
];

/**
 * The staff bell in the admin header (issues 17 and 32): the last 50 client and share-link
 * events with an unread badge. Unread entries stay marked until "Mark all read"; "Email
 * settings" opens the Notifications dialog. Someone who has uploaded or assigned an item while
 * their emails are off is asked once, at the top of the panel, whether they want emails (a
 * dot on the bell says there is a question). A disclosure (button + panel of links and
 * buttons), so Tab moves through it and Escape closes it.
 */
export default function NotificationBell() {
  const hydrated = useHydrated();
  const [data, setData] = useState<BellAnswer | null>(null);
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const askId = useId();

  const load = useCallback(async () => {
    try {
      setData(await apiJson<BellAnswer>('GET', '/api/notifications'));
      setFailed(false);
    } catch {
      // A missed poll is retried at the next one; the badge keeps its last count.
      setFailed(true);
    }
  }, []);

  useLiveReload(['bell'], () => void load());
  usePollWhileOffline(() => void load(), BELL_POLL_MS, { visibleOnly: true });
  useEffect(() => {
    void load();
    const onFocus = () => void load();
    const onVisible = () => document.visibilityState === 'visible' && void load();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [load]);

  useEffect(() => {
    if (!open || settingsOpen) return;
    const onDoc = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open, settingsOpen]);

  const toggle = () => {
    setStatus(null);
    setOpen(!open);
    if (!open) void load();
  };

  const markAllRead = async () => {
    setBusy(true);
    try {
      setData(await apiJson<BellAnswer>('POST', '/api/notifications/seen'));
      setStatus({ text: 'All marked as read.', error: false });
    } catch (e) {
      setStatus({ text: errorMessage(e, 'Could not mark them read'), error: true });
    } finally {
      setBusy(false);
    }
  };

  const answer = async (mode: NotifyMode) => {
    setBusy(true);
    try {
      await apiJson('PUT', '/api/user/notifications', { mode });
      setData((d) => (d ? { ...d, askEmail: false } : d));
      setStatus({
        text: mode === 'off' ? 'No emails. You can turn them on in Email settings.' : `Saved: ${mode === 'digest' ? 'a daily digest' : 'an email for each response'}.`,
        error: false,
      });
    } catch (e) {
      setStatus({ text: errorMessage(e, 'Could not save your answer'), error: true });
    } finally {
      setBusy(false);
    }
  };

  const unread = data?.unread ?? 0;
  const ask = data?.askEmail ?? false;
  const label = unread ? `Notifications (${unread} unread)` : 'Notifications';

  return (
    <div className="relative">
      {ask && (
        <span id={`${askId}-hint`} className="sr-only">
          There is a question for you inside.
        </span>
      )}
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={id}
        aria-describedby={ask ? `${askId}-hint` : undefined}
        disabled={!hydrated}
        onClick={toggle}
        data-testid="notification-bell"
        className="relative inline-flex h-10 w-10 items-center justify-center rounded-md text-fg-muted hover:bg-muted hover:text-fg disabled:cursor-wait"
      >
        <Bell size={18} aria-hidden="true" />
      </button>
      {/* The badge sits over the button, outside it: the button's name says the count, and no
          text inside it differs from its name (axe: label-content-name-mismatch). */}
      {unread > 0 ? (
        <span aria-hidden="true" className="pointer-events-none absolute right-1 top-1 min-w-4 rounded-full bg-accent px-1 text-center text-[10px] font-semibold leading-4 text-accent-fg">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : (
        ask && <span aria-hidden="true" className="pointer-events-none absolute right-2 top-2 h-2 w-2 rounded-full bg-accent" />
      )}
      {open && (
        <div
          ref={panel}
          id={id}
          role="region"
          aria-label="Recent notifications"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !settingsOpen) {
              setOpen(false);
              button.current?.focus();
            }
          }}
          className="absolute right-0 z-50 mt-1 w-[min(24rem,calc(100vw-2rem))] overflow-hidden rounded-md border border-line bg-raised shadow-lg"
        >
          <div className="flex items-center gap-2 border-b border-line px-4 py-2">
            <p className="mr-auto text-sm font-medium">Notifications</p>
            <button
              type="button"
              onClick={() => void markAllRead()}
              disabled={busy || unread === 0}
              className="rounded px-2 py-1 text-xs font-medium text-accent hover:bg-muted disabled:cursor-default disabled:text-fg-muted disabled:hover:bg-transparent"
            >
              Mark all read
            </button>
            <button
              type="button"
              onClick={() => setSettingsOpen(true)}
              className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-medium text-fg-muted hover:bg-muted hover:text-fg"
            >
              <Settings size={14} aria-hidden="true" />
              Email settings
            </button>
          </div>
          {ask && (
            <div role="group" aria-labelledby={askId} className="border-b border-line bg-muted/60 px-4 py-3" data-testid="bell-ask-email">
              <div className="flex items-start gap-2">
                <p id={askId} className="mr-auto text-sm font-medium">
                  Get an email when clients respond?
                </p>
                <button
                  type="button"
                  aria-label="Dismiss: no emails"
                  disabled={busy}
                  onClick={() => void answer('off')}
                  className="-mr-1 -mt-1 inline-flex h-7 w-7 items-center justify-center rounded text-fg-muted hover:bg-muted hover:text-fg"
                >
                  <X size={14} aria-hidden="true" />
                </button>
              </div>
              <p className="mt-1 text-xs text-fg-muted">Feedback, timeline notes and approvals on your items. The bell shows them either way.</p>
              <div className="mt-2 flex flex-wrap gap-2">
                {ASK_ANSWERS.map((a) => (
                  <button
                    key={a.mode}
                    type="button"
                    disabled={busy}
                    onClick={() => void answer(a.mode)}
                    className={`rounded-md px-3 py-1.5 text-xs font-medium ${a.mode === 'off' ? 'border border-line hover:bg-muted' : 'bg-accent text-accent-fg hover:opacity-90'}`}
                  >
                    {a.label}
                  </button>
                ))}
              </div>
            </div>
          )}
          <p role="status" aria-live="polite" className={`px-4 text-xs ${status ? 'py-2' : ''} ${status?.error ? 'text-danger' : 'text-fg-muted'}`}>
            {status?.text ?? ''}
          </p>
          {data === null ? (
            <p className="px-4 py-6 text-sm text-fg-muted">{failed ? 'Could not load notifications. Trying again shortly.' : 'Loading...'}</p>
          ) : data.events.length === 0 ? (
            <p className="px-4 py-6 text-sm text-fg-muted">Nothing yet. Client feedback, notes and approvals will show up here.</p>
          ) : (
            <ul className="max-h-[min(28rem,70dvh)] overflow-y-auto py-1">
              {data.events.map((e) => (
                <BellItem key={e.id} event={e} />
              ))}
            </ul>
          )}
        </div>
      )}
      <NotifyModeDialog
        open={settingsOpen}
        onClose={() => {
          setSettingsOpen(false);
          void load();
        }}
        endpoint="/api/user/notifications"
        about={STAFF_NOTIFY_ABOUT}
      />
    </div>
  );
}

function BellItem({ event }: { event: BellEvent }) {
  const Icon = ICONS[event.kind] ?? Bell;
  const fresh = event.unread;
  return (
    <li>
      <a href={event.path} className={`flex gap-3 px-4 py-2.5 text-sm hover:bg-muted focus-visible:bg-muted ${fresh ? 'bg-muted/60' : ''}`}>
        <Icon size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-fg-muted" />
        <span className="min-w-0">
          <span className="block">
            {fresh && <span className="sr-only">New: </span>}
            {event.summary}
          </span>
          {event.noteMs != null && (
            <span className="mt-0.5 block truncate text-xs" data-testid="bell-note">
              <span className="font-mono tabular-nums">{formatTimestamp(event.noteMs / 1000)}</span> {event.noteLine}
            </span>
          )}
          <span className="block text-xs text-fg-muted">{formatDateTime(event.createdAt)}</span>
        </span>
        {fresh && <span aria-hidden="true" className="ml-auto mt-1.5 h-2 w-2 shrink-0 rounded-full bg-accent" />}
      </a>
    </li>
  );
}

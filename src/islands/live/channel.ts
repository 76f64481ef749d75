// The tab's one event stream (issue 41), shared by every island of the page: opened by the
// first island that listens, at the address the page's kind calls for (admin pages as staff,
// the portal as a client, a share page with its link). EventSource reconnects by itself and
// sends the last id it had, so the server replays what was missed; when it could not (the
// hello says resumed: false, also on the very first hello) every listener is told to load its
// screen again ('resync'). While no stream is open, `$live.connected` is false and the screens
// keep their old polling.
import { atom } from 'nanostores';
import type { LiveClosed, LiveHello, LiveSessionInfo, LiveTopic } from '../../shared/schemas/live.ts';

export interface LiveStatus {
  connected: boolean;
  /** This stream's id (joining a live session names it). */
  connection: string | null;
  /** Server clock minus this device's clock (ms), from the hello. */
  serverOffset: number;
  /** Open live sessions on items this viewer may see. */
  sessions: LiveSessionInfo[];
  /** Set when the server ended the stream for good (signed out, link gone). */
  closed: LiveClosed['reason'] | null;
}

export const $live = atom<LiveStatus>({ connected: false, connection: null, serverOffset: 0, sessions: [], closed: null });

// The page says whether it is live (<html data-live="open">): for styles, and for tests to know
// that what follows arrives over the stream.
$live.subscribe((s) => {
  if (typeof document !== 'undefined') document.documentElement.dataset.live = s.connected ? 'open' : s.closed ? 'closed' : 'offline';
});

export type LiveListener = (topic: LiveTopic | 'resync' | 'closed', data: any) => void;

const listeners = new Set<LiveListener>();
let source: EventSource | null = null;

/** The stream for this page, or null where there is none (public pages). */
export function streamUrl(pathname: string): string | null {
  if (pathname.startsWith('/admin')) return '/api/live/stream?as=staff';
  if (pathname.startsWith('/client')) return '/api/live/stream?as=client';
  const share = /^\/s\/([a-z2-7]{40})(?:\/|$)/.exec(pathname);
  return share ? `/api/share/${share[1]}/live` : null;
}

/** The base of this page's live session calls (`?as=` added by the caller). */
export function sessionBase(pathname: string): string | null {
  if (pathname.startsWith('/admin') || pathname.startsWith('/client')) return '/api/live/sessions';
  const share = /^\/s\/([a-z2-7]{40})(?:\/|$)/.exec(pathname);
  return share ? `/api/share/${share[1]}/live` : null;
}

export const liveAs = (pathname: string) => (pathname.startsWith('/admin') ? 'staff' : 'client');

function emit(topic: Parameters<LiveListener>[0], data: unknown): void {
  for (const l of [...listeners]) {
    try {
      l(topic, data);
    } catch (e) {
      console.error(e);
    }
  }
}

const TOPICS: LiveTopic[] = ['note', 'feedback', 'reply', 'approval', 'version', 'processing', 'media', 'assignment', 'link', 'link-activity', 'preview', 'bell', 'live', 'gallery'];

function open(): void {
  if (source || typeof window === 'undefined' || typeof EventSource === 'undefined') return;
  const url = streamUrl(location.pathname);
  if (!url || $live.get().closed) return;
  const es = new EventSource(url, { withCredentials: true });
  source = es;
  es.addEventListener('hello', (e) => {
    const hello = JSON.parse((e as MessageEvent).data) as LiveHello;
    $live.set({ ...$live.get(), connected: true, connection: hello.connection, serverOffset: hello.serverTime - Date.now(), sessions: hello.sessions });
    if (!hello.resumed) emit('resync', null);
  });
  for (const topic of TOPICS) {
    es.addEventListener(topic, (e) => {
      const data = JSON.parse((e as MessageEvent).data);
      if (topic === 'live') trackSessions(data);
      emit(topic, data);
    });
  }
  es.addEventListener('closed', (e) => {
    const { reason } = JSON.parse((e as MessageEvent).data) as LiveClosed;
    // A stream the server ended for good is not reopened. A stopping server's is (another
    // process takes over), and so is one this tab read too slowly: EventSource reconnects by
    // itself when the answer ends, from the last message it had, and misses nothing.
    if (reason === 'shutdown' || reason === 'too-slow') return;
    es.close();
    source = null;
    $live.set({ ...$live.get(), connected: false, connection: null, closed: reason });
    emit('closed', { reason });
  });
  es.onerror = () => {
    // EventSource retries by itself unless the server refused the stream (CLOSED).
    $live.set({ ...$live.get(), connected: false, connection: null });
    if (es.readyState === EventSource.CLOSED) {
      source = null;
      // Refused (a limit, a blip in a proxy): try again later, the screens poll meanwhile.
      setTimeout(() => listeners.size && open(), 15_000);
    }
  };
}

/**
 * The person is signing out: the stream closes for good, and no screen reloads or polls on its
 * account any more (useLive.ts), so nothing asks for their data once Logout was pressed (such a
 * request would only answer 401 a moment later).
 */
export function signOutLive(): void {
  source?.close();
  source = null;
  $live.set({ ...$live.get(), connected: false, connection: null, closed: 'signed-out' });
}

/** Whether this tab signed out (or its session ended): screens stop reloading and polling. */
export const signedOut = () => $live.get().closed === 'signed-out';

function trackSessions(m: { type?: string; session?: LiveSessionInfo; sessionId?: number }): void {
  const cur = $live.get();
  if (m.type === 'started' && m.session && !cur.sessions.some((s) => s.id === m.session!.id)) $live.set({ ...cur, sessions: [...cur.sessions, m.session] });
  if (m.type === 'ended') $live.set({ ...cur, sessions: cur.sessions.filter((s) => s.id !== m.sessionId) });
}

/** Listens to the tab's stream (opening it if needed); answers the function that stops listening. */
export function listen(listener: LiveListener): () => void {
  listeners.add(listener);
  open();
  return () => {
    listeners.delete(listener);
  };
}

/** The server's clock now, as far as this device can tell. */
export function serverNow(): number {
  return Date.now() + $live.get().serverOffset;
}

// Screens that update themselves (issue 41): a screen names the topics it shows and what to do
// (usually: load again); several events in a burst cost one load. A stream that had to start
// over ('resync') loads too. `usePollWhileOffline` keeps a screen's old polling for when no
// stream is open.
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import type { LiveTopic } from '../../shared/schemas/live.ts';
import { $live, listen, signedOut } from './channel.ts';

/** Waits this long after an event for more before loading (a burst is one load). */
const SETTLE_MS = 150;

/**
 * Calls `load` after events of `topics` that `accept` lets through (default: all), and after a
 * resync. `load` may change between renders; the latest one runs.
 */
export function useLiveReload(topics: readonly LiveTopic[], load: () => void, accept: (topic: LiveTopic, data: any) => boolean = () => true, enabled = true): void {
  const latest = useRef({ load, accept });
  latest.current = { load, accept };
  const key = topics.join(',');
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const fire = () => {
      timer = null;
      if (!signedOut()) latest.current.load();
    };
    const stop = listen((topic, data) => {
      if (topic === 'closed') return;
      if (topic !== 'resync' && (!key.split(',').includes(topic) || !latest.current.accept(topic, data))) return;
      if (!timer) timer = setTimeout(fire, SETTLE_MS);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [key, enabled]);
}

/** Whether the tab's stream is open now (screens poll only while it is not). */
export function useLiveConnected(): boolean {
  return useStore($live).connected;
}

/** Runs `tick` every `everyMs` while no stream is open (and the page is visible when asked). */
export function usePollWhileOffline(tick: () => void, everyMs: number, opts: { enabled?: boolean; visibleOnly?: boolean } = {}): void {
  const live = useStore($live);
  // A stream ended by signing out is not "offline": nothing is polled for a session that is gone.
  const connected = live.connected || live.closed === 'signed-out';
  const latest = useRef(tick);
  latest.current = tick;
  const { enabled = true, visibleOnly = false } = opts;
  useEffect(() => {
    if (connected || !enabled) return;
    const t = setInterval(() => {
      if (!visibleOnly || document.visibilityState === 'visible') latest.current();
    }, everyMs);
    return () => clearInterval(t);
  }, [connected, enabled, everyMs, visibleOnly]);
}

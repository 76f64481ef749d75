// Runs in every app process (scripts/start.mjs): ends live sessions whose presenter has gone
// (sessions.ts) and prunes old event rows even while no stream is open. Both are idempotent, so
// several processes running them at once agree.
import { config } from '../config.ts';
import { prune } from './log.ts';
import { sweepSessions } from './sessions.ts';

export function startLiveSweeper(): () => void {
  const every = Math.max(250, Math.min(10_000, Math.floor(config.LIVE_PRESENTER_GRACE_MS / 4)));
  let busy = false;
  let lastPrune = 0;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    (async () => {
      await sweepSessions();
      if (Date.now() - lastPrune > 60_000) {
        lastPrune = Date.now();
        await prune();
      }
    })()
      .catch((e) => console.error('live: sweeping sessions', e))
      .finally(() => (busy = false));
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}

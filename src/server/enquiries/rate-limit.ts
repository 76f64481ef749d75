// At most MAX_PER_WINDOW stored enquiries per client address in WINDOW_MS (a sliding window).
// Kept in memory, so the limit is per server process: a restart forgets it, and N processes
// behind a load balancer allow N times as many. That is enough to stop a form-spamming script;
// the honeypot catches the simple bots before they get here.

export const MAX_PER_WINDOW = 5;
export const WINDOW_MS = 10 * 60 * 1000;
export const RATE_LIMIT_MESSAGE =
  "You've sent several enquiries in the last few minutes. Please wait 10 minutes and try again, or email us directly.";

const hits = new Map<string, number[]>();
let lastSweep = 0;

function sweep(now: number) {
  if (now - lastSweep < WINDOW_MS) return;
  lastSweep = now;
  for (const [key, times] of hits) {
    if (!times.some((t) => t > now - WINDOW_MS)) hits.delete(key);
  }
}

/**
 * Takes one slot for `address` if the window has room (check and record happen together, so
 * parallel requests cannot both squeeze through). Returns a function that gives the slot back,
 * for when storing the enquiry fails after all.
 */
export function takeEnquirySlot(address: string | null, now = Date.now()): (() => void) | null {
  sweep(now);
  const key = address ?? 'unknown';
  const recent = (hits.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
  if (recent.length >= MAX_PER_WINDOW) {
    hits.set(key, recent);
    return null;
  }
  recent.push(now);
  hits.set(key, recent);
  return () => {
    const list = hits.get(key);
    const i = list?.indexOf(now) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  };
}

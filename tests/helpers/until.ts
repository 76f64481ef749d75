import { recordWait } from './timing.ts';

// Polls `fn` every 100 ms until it returns something truthy, or fails naming what it waited for.
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const started = performance.now();
  const end = Date.now() + timeoutMs;
  try {
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    recordWait(performance.now() - started);
  }
}

// What the rest of the app tells the metrics (issue 56) without loading them: with METRICS_TOKEN
// unset prom-client is never loaded and these calls do nothing. registry.ts, once loaded, puts
// its observers on globalThis (shared with scripts/serve.mjs, which reports every request, and
// with the runtime bundle, whose video worker reports conversions).
export const REQUEST_OBSERVER = Symbol.for('studio.metrics.request');
export const CONVERSION_OBSERVER = Symbol.for('studio.metrics.conversion');

type ConversionObserver = (kind: string, outcome: string, seconds: number) => void;

/** Whether anyone counts conversions (so the worker reads a job's outcome only then). */
export const conversionsCounted = (): boolean => !!(globalThis as Record<symbol, unknown>)[CONVERSION_OBSERVER];

/** A job of the video worker finished (done, retrying or failed) after `seconds`. */
export function conversionFinished(kind: string, outcome: string, seconds: number): void {
  (globalThis as Record<symbol, ConversionObserver | undefined>)[CONVERSION_OBSERVER]?.(kind, outcome, seconds);
}

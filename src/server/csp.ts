import { createHash } from 'node:crypto';

type Sha256Source = `sha256-${string}`;
const cache = new Map<string, Sha256Source>();

/** CSP hash source for an inline script we render ourselves (Astro hashes only its own). */
export function scriptHash(source: string): Sha256Source {
  let h = cache.get(source);
  if (!h) {
    h = `sha256-${createHash('sha256').update(source).digest('base64')}` as Sha256Source;
    cache.set(source, h);
  }
  return h;
}

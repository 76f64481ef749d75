import { createHash } from 'node:crypto';

const cache = new Map<string, string>();

/** CSP hash source for an inline script we render ourselves (Astro hashes only its own). */
export function scriptHash(source: string): string {
  let h = cache.get(source);
  if (!h) {
    h = `sha256-${createHash('sha256').update(source).digest('base64')}`;
    cache.set(source, h);
  }
  return h;
}

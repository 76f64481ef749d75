// Waiting for the video worker in API tests: the item's live state, polled until it settles.
import { expect } from 'vitest';
import type { Session } from './http.ts';

/** Polls `GET /api/media/{id}/processing` until the item is ready or failed; answers that state. */
export async function waitSettled(s: Session, id: number, timeoutMs = 100_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await s.json('GET', `/api/media/${id}/processing`);
    expect(r.status).toBe(200);
    if (r.body.processingStatus === 'ready' || r.body.processingStatus === 'failed') return r.body;
    if (Date.now() > until) throw new Error(`item ${id} still ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

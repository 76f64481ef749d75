// The Node response of the current request, for endpoints that stream large bodies.
// Astro's writeResponse writes chunks without waiting for 'drain', so a fast disk and a
// slow client would pile the whole file up in memory; a stream that checks the response's
// back-pressure before each read avoids that. scripts/serve.mjs runs each request inside
// this store (shared through a global symbol because the server bundle and the start
// script load separate copies of this module).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

const KEY = Symbol.for('studio.nodeResponse');
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<ServerResponse> | undefined>;
export const nodeResponses: AsyncLocalStorage<ServerResponse> = (g[KEY] ??= new AsyncLocalStorage<ServerResponse>());

export function currentNodeResponse(): ServerResponse | null {
  return nodeResponses.getStore() ?? null;
}

// The one browser-side fetch helper (000 §7): credentials always, JSON body only when given,
// errors carry the status and the server's message, put in words people understand
// (issue 19 #16): no "Failed to fetch", no "Internal Server Error", no "field: " prefix.
import { NOT_SIGNED_IN, signInAgainHref } from './landing.ts';
import { offerSignInAgain } from './toast.ts';

export const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';
export const SERVER_ERROR_MESSAGE = 'Something went wrong on the server. Please try again in a moment.';
export const UNAVAILABLE_MESSAGE = 'The server is not answering right now. Please try again in a moment.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Sign in again to continue.';

/** How often a read answered 503 with Retry-After is tried again before the error shows. */
const UNAVAILABLE_RETRIES = 3;

/** The request never got an answer (offline, DNS, connection refused or reset). */
export class NetworkError extends Error {
  constructor() {
    super(NETWORK_MESSAGE);
    this.name = 'NetworkError';
  }
}

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    /** The server's `{ message }` (without a "field: " prefix), or a sentence for the status. */
    public readonly serverMessage: string,
    /** The field a 400 names ("message: Message is required" -> "message"), if any. */
    public readonly field: string | null = null,
  ) {
    super(`${status}: ${serverMessage}`);
    this.name = 'ApiError';
  }
}

/** Splits our zod messages ("title: Title is required") into the field and the sentence. */
export function splitFieldPrefix(message: string): { field: string | null; text: string } {
  const m = /^([A-Za-z_][\w]*(?:\.[\w]+)*): (\S[\s\S]*)$/.exec(message);
  return m ? { field: m[1]!, text: m[2]! } : { field: null, text: message };
}

async function errorFrom(res: Response, path: string): Promise<ApiError> {
  return apiErrorFrom(res.status, res.statusText, await res.text().catch(() => ''), path);
}

/** The error for a failed answer (also used by the upload's XHR, which has no Response). */
export function apiErrorFrom(status: number, statusText: string, text: string, path: string): ApiError {
  const res = { status, statusText };
  let message: string | null = null;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed?.message === 'string' && parsed.message.trim()) message = parsed.message;
  } catch {
    /* not our JSON shape (a proxy's page, a crash): described by status below */
  }
  // A 401 is a lost session only when it says so (or says nothing of ours: a proxy's): a wrong
  // PIN or password is a 401 too, and must read as itself, not send anyone to sign in (issue 53).
  if (res.status === 401 && (message === null || message === NOT_SIGNED_IN) && typeof window !== 'undefined' && !/\/login$/.test(path)) {
    const href = signInAgainHref(window.location.pathname + window.location.search);
    if (href) {
      offerSignInAgain(href);
      return new ApiError(401, SESSION_EXPIRED_MESSAGE);
    }
  }
  if (message === null) {
    if (res.status === 502 || res.status === 503 || res.status === 504) message = UNAVAILABLE_MESSAGE;
    else if (res.status >= 500) message = SERVER_ERROR_MESSAGE;
    else message = text && text.length < 200 && !/[<>{}]/.test(text) ? text : res.statusText || 'Request failed';
  } else if (res.status >= 500 && /^internal server error$/i.test(message.trim())) {
    message = SERVER_ERROR_MESSAGE;
  }
  const { field, text: sentence } = splitFieldPrefix(message);
  return new ApiError(res.status, sentence, field);
}

/** Sends any method to a path; throws ApiError on a non-ok answer. */
export async function apiRequest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include', headers: { ...headers } };
  // A form (files) goes as multipart; anything else as JSON.
  if (typeof FormData !== 'undefined' && body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(path, init);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new NetworkError();
    }
    // A 503 with Retry-After: the database server is restarting (issue 44). A read is tried
    // again after the wait it asks for; a write is not (the person decides to send it again).
    const wait = Number(res.headers.get('retry-after'));
    if (res.status !== 503 || method !== 'GET' || !(wait > 0 && wait <= 30) || attempt >= UNAVAILABLE_RETRIES) break;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  if (!res.ok) throw await errorFrom(res, path);
  return res;
}

/** Sends and parses the JSON answer. */
export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The default data loader: GET, parse JSON; with `on401: 'null'` a 401 answers null. */
export async function apiGet<T>(path: string, opts: { on401?: 'throw' | 'null' } = {}): Promise<T | null> {
  try {
    return await apiJson<T>('GET', path);
  } catch (e) {
    if (opts.on401 === 'null' && e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** The message a toast should show for a failed call. */
export function errorMessage(e: unknown, fallback = 'Something went wrong'): string {
  if (e instanceof ApiError) return e.serverMessage;
  // fetch() outside this helper (uploads use XHR) rejects with "Failed to fetch" and the like.
  if (e instanceof TypeError && /fetch|network/i.test(e.message)) return NETWORK_MESSAGE;
  if (e instanceof Error && e.message) return e.message;
  return fallback;
}

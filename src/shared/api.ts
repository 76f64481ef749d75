// The one browser-side fetch helper (000 §7): credentials always, JSON body only when given,
// errors carry the status and the server's message.

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    /** The server's `{ message }`, or the body text / status text when there is none. */
    public readonly serverMessage: string,
  ) {
    super(`${status}: ${serverMessage}`);
    this.name = 'ApiError';
  }
}

async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let message = text || res.statusText || 'Request failed';
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed?.message === 'string') message = parsed.message;
  } catch {
    /* not JSON: keep the text */
  }
  return new ApiError(res.status, message);
}

/** Sends any method to a path; throws ApiError on a non-ok answer. */
export async function apiRequest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include', headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(path, init);
  if (!res.ok) throw await errorFrom(res);
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
  if (e instanceof Error && e.message) return e.message;
  return fallback;
}

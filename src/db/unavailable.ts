// A database that cannot be reached (a libSQL server stopped, restarting or cut off), or that
// stayed locked by other writers past every wait, is not a bug in the request: callers answer
// 503 with Retry-After and try again (issue 44). The client reports an unreachable server as
// fetch's "fetch failed" TypeError with the socket error as its cause, or as a libSQL HTTP
// error; drizzle wraps either in a DrizzleQueryError (`cause`).
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable right now. Please try again in a moment.';
export const DATABASE_BUSY_MESSAGE = 'The database is busy right now. Please try again in a moment.';
/** What a 503 asks clients to wait before retrying. */
export const RETRY_AFTER_SECONDS = 2;

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
// @libsql/client: a stream the server forgot when it restarted mid-transaction. Its
// SERVER_ERROR counts only for a 5xx (a proxy in front of a stopped server); a 401 or 403
// (a wrong DATABASE_AUTH_TOKEN) is a configuration error, not an outage.
const LIBSQL_CODES = new Set(['STREAM_EXPIRED', 'STREAM_CLOSED', 'HRANA_WEBSOCKET_ERROR', 'HRANA_CLOSED_ERROR']);
const SERVER_5XX_RE = /HTTP status 5\d\d/;

/** Whether `test` holds for the error or anything in its chain of causes. */
function inChain(error: unknown, test: (e: unknown, code: string) => boolean): boolean {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e, String((e as { code?: unknown }).code ?? ''))) return true;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return inChain(
    error,
    (e, code) =>
      SOCKET_CODES.has(code) ||
      code.startsWith('UND_ERR_') ||
      LIBSQL_CODES.has(code) ||
      (code === 'SERVER_ERROR' && SERVER_5XX_RE.test(String((e as Error).message))) ||
      (e instanceof TypeError && e.message === 'fetch failed'),
  );
}

/**
 * Locked by other writers past the busy wait (SQLITE_BUSY), or, on sqld, a transaction that
 * held the write lock over 5 s while others waited and was rolled back (TRANSACTION_TIMEOUT).
 * Either way nothing of it was written.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return inChain(error, (_e, code) => code.startsWith('SQLITE_BUSY') || code === 'TRANSACTION_TIMEOUT');
}

/** The 503's message for a database that cannot answer now, or null for any other error. */
export function databaseTrouble(error: unknown): string | null {
  if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE_MESSAGE;
  if (isDatabaseBusy(error)) return DATABASE_BUSY_MESSAGE;
  return null;
}

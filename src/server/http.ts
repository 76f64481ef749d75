// The one error shape ({ message }) and the helpers every endpoint uses to produce it.
import type { APIContext, APIRoute } from 'astro';
import { z, ZodError, type ZodType } from 'zod';
import { forwardedAddress } from './proxy.ts';
import { RETRY_AFTER_SECONDS, databaseTrouble } from '../db/unavailable.ts';

// No parameter properties: modules loaded by scripts/start.mjs under Node's type stripping
// (media derivatives via the demo seed) reach this file through storage/disk-space.ts.
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ message }, status, headers);
}

/** 503 while the database cannot answer (src/db/unavailable.ts): a cut-off transaction never committed. */
export function databaseUnavailableResponse(message: string): Response {
  return errorResponse(503, message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/** Describes a zod failure as one sentence naming the field. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request body';
  const field = issue.path.length ? issue.path.join('.') : 'body';
  return `${field}: ${issue.message}`;
}

export const JSON_BODY_LIMIT = 256 * 1024;

/** A request's whole body, refused with 413 (`tooLarge`) once it passes `limit` bytes, declared or sent. */
export async function readBody(request: Request, limit: number, tooLarge = 'Request body is too large'): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw new HttpError(413, tooLarge);
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  const reader = request.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpError(413, tooLarge);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Reads a JSON body (with a size cap) and validates it. Throws HttpError(400/413/415). */
export async function readJson<T extends ZodType>(request: Request, schema: T, limit = JSON_BODY_LIMIT): Promise<z.infer<T>> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().includes('application/json')) {
    throw new HttpError(415, 'Content-Type must be application/json');
  }
  const text = new TextDecoder().decode(await readBody(request, limit));
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new HttpError(400, describeZodError(parsed.error));
  return parsed.data;
}

/** Parses a numeric id from a route parameter; malformed ids are 404 (they name nothing). */
export function parseId(value: string | undefined, what = 'Item'): number {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw new HttpError(404, `${what} not found`);
  return Number(value);
}

/** Turns any thrown error into the JSON error shape; unexpected ones are logged, never leaked. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.message);
  if (error instanceof ZodError) return errorResponse(400, describeZodError(error));
  const trouble = databaseTrouble(error);
  if (trouble) {
    console.error(`${trouble} (${String((error as Error).message ?? error).split('\n')[0]})`);
    return databaseUnavailableResponse(trouble);
  }
  const code = (error as { code?: string } | null)?.code ?? '';
  const msg = String((error as Error | null)?.message ?? '');
  // A full disk is the operator's problem, not a bug: say so, and leave the log a short line.
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || /No space left on device|database or disk is full/i.test(msg)) {
    console.error(`Disk full: ${msg}`);
    return errorResponse(507, 'Not enough disk space to save this. Please try again later.');
  }
  if (code.startsWith('SQLITE_CONSTRAINT') || /UNIQUE constraint failed/.test(msg)) {
    if (/UNIQUE/.test(msg)) return errorResponse(409, 'That value is already in use');
    if (/FOREIGN KEY/.test(msg)) return errorResponse(400, 'A referenced item does not exist');
    return errorResponse(400, 'The request breaks a data rule');
  }
  console.error(error);
  return errorResponse(500, 'Something went wrong on our side. Please try again.');
}

/** Wraps an endpoint so every error becomes `{ message }` with the right status. */
export function endpoint(fn: (ctx: APIContext) => Promise<Response> | Response): APIRoute {
  return async (ctx) => {
    try {
      return await fn(ctx);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

export function clientIp(ctx: APIContext): string | null {
  const forwarded = forwardedAddress(ctx.request);
  if (forwarded) return forwarded;
  try {
    return ctx.clientAddress ?? null;
  } catch {
    return null;
  }
}

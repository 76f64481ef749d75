// `Authorization: Bearer <token>` checked against a configured token in constant time: SHA-256
// of both first, so the lengths match for timingSafeEqual and a short guess exits no earlier.
// Used by GET /api/health (HEALTH_TOKEN) and GET /metrics (METRICS_TOKEN).
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** 'none': no bearer token sent; 'match' or 'mismatch' against `expected` (unset never matches). */
export function bearerToken(header: string | null, expected: string | undefined): 'none' | 'match' | 'mismatch' {
  const bearer = /^Bearer(?:\s+(.*))?$/i.exec(header ?? '');
  if (!bearer) return 'none';
  const sent = (bearer[1] ?? '').trim();
  return expected && sent && timingSafeEqual(digest(sent), digest(expected)) ? 'match' : 'mismatch';
}

// GET /metrics: 404 while METRICS_TOKEN is unset (as if there were no such page), 401 without the
// token or with another, else this process's metrics as Prometheus text.
import type { APIContext } from 'astro';
import { config } from '../config.ts';
import { bearerToken } from '../bearer.ts';
import { errorResponse } from '../http.ts';

export const WRONG_METRICS_TOKEN = 'Send Authorization: Bearer with the METRICS_TOKEN';

export async function metricsResponse(ctx: Pick<APIContext, 'request'>): Promise<Response> {
  if (!config.METRICS_TOKEN) return errorResponse(404, 'Not found');
  if (bearerToken(ctx.request.headers.get('authorization'), config.METRICS_TOKEN) !== 'match') {
    return errorResponse(401, WRONG_METRICS_TOKEN, { 'WWW-Authenticate': 'Bearer' });
  }
  const { metricsText } = await import('./registry.ts');
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
}

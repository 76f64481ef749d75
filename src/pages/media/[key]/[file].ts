// Media files (/media/<storageKey>/<variant>): visibility, ranges and caching in src/server/media/delivery.ts.
import type { APIRoute } from 'astro';
import { endpoint } from '../../../server/http.ts';
import { serveMediaFile } from '../../../server/media/delivery.ts';

const serve: APIRoute = endpoint((ctx) => serveMediaFile(ctx, ctx.params.key, ctx.params.file));
export const GET = serve;
export const HEAD = serve;

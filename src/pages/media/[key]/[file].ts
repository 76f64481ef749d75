// Media files (/media/<storageKey>/<variant>): visibility, ranges and caching in src/server/media/delivery.ts;
// a version's caption files (captions.json, cc-…, oc-…) by the captions' rules in src/server/captions/files.ts.
import type { APIRoute } from 'astro';
import { endpoint } from '../../../server/http.ts';
import { serveMediaFile } from '../../../server/media/delivery.ts';
import { isCaptionFile, serveCaptionMediaFile } from '../../../server/captions/files.ts';

const serve: APIRoute = endpoint((ctx) => {
  const { key, file } = ctx.params;
  return key && file && isCaptionFile(file) ? serveCaptionMediaFile(ctx, key, file) : serveMediaFile(ctx, key, file);
});
export const GET = serve;
export const HEAD = serve;

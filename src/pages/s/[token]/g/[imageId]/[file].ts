// A gallery link's files: display sizes, and downloads the package allows (server/proofing/files.ts).
import type { APIRoute } from 'astro';
import { endpoint } from '../../../../../server/http.ts';
import { linkViewing } from '../../../../../server/proofing/access.ts';
import { serveViewerFile } from '../../../../../server/proofing/files.ts';

const serve: APIRoute = endpoint(async (ctx) => serveViewerFile(await linkViewing(ctx, ctx.params.token), ctx.params.imageId, ctx.params.file));
export const GET = serve;
export const HEAD = serve;

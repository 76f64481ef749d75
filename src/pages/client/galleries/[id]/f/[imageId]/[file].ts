// A client's gallery files: display sizes, and downloads the package allows (server/proofing/files.ts).
import type { APIRoute } from 'astro';
import { endpoint } from '../../../../../../server/http.ts';
import { clientViewing } from '../../../../../../server/proofing/access.ts';
import { serveViewerFile } from '../../../../../../server/proofing/files.ts';

const serve: APIRoute = endpoint(async (ctx) => serveViewerFile(await clientViewing(ctx, ctx.params.id), ctx.params.imageId, ctx.params.file));
export const GET = serve;
export const HEAD = serve;

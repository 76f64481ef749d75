// A client's ZIP of the gallery, a set, a list or their hearts (server/proofing/zip-download.ts).
import { endpoint } from '../../../../server/http.ts';
import { clientViewing } from '../../../../server/proofing/access.ts';
import { serveGalleryZip } from '../../../../server/proofing/zip-download.ts';

export const GET = endpoint(async (ctx) => serveGalleryZip(await clientViewing(ctx, ctx.params.id)));

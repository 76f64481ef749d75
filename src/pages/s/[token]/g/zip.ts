// A gallery link's ZIP of the gallery, a set, a list or the guest's hearts (server/proofing/zip-download.ts).
import { endpoint } from '../../../../server/http.ts';
import { linkViewing } from '../../../../server/proofing/access.ts';
import { serveGalleryZip } from '../../../../server/proofing/zip-download.ts';

export const GET = endpoint(async (ctx) => serveGalleryZip(await linkViewing(ctx, ctx.params.token)));

import { endpoint, json } from '../../../../../server/http.ts';
import { linkViewing } from '../../../../../server/proofing/access.ts';
import { viewerGallery } from '../../../../../server/proofing/view.ts';

/** The gallery with this viewer's hearts, stars, picks and lists. */
export const GET = endpoint(async (ctx) => json(await viewerGallery(await linkViewing(ctx, ctx.params.token))));

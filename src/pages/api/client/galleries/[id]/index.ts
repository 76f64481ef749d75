import { endpoint, json } from '../../../../../server/http.ts';
import { clientViewing } from '../../../../../server/proofing/access.ts';
import { viewerGallery } from '../../../../../server/proofing/view.ts';

/** The gallery with this viewer's hearts, stars, picks and lists. */
export const GET = endpoint(async (ctx) => json(await viewerGallery(await clientViewing(ctx, ctx.params.id))));

import { endpoint, json, parseId } from '../../../../../../server/http.ts';
import { viewSession } from '../../../../../../server/live/actions.ts';
import { linkPrincipal } from '../../../../../../server/live/principal.ts';

/** A live session as a visitor of a link that allows comments sees it. */
export const GET = endpoint(async (ctx) => json(await viewSession(await linkPrincipal(ctx, ctx.params.token), parseId(ctx.params.id, 'Live session'))));

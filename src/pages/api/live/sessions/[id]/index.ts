import { endpoint, json, parseId } from '../../../../../server/http.ts';
import { viewSession } from '../../../../../server/live/actions.ts';
import { liveAs, principalAs } from '../../../../../server/live/principal.ts';

/** A live session: the presenter's player, who is there and at which frame (`?as=staff|client`). */
export const GET = endpoint(async (ctx) => json(await viewSession(principalAs(ctx, liveAs(ctx.url)), parseId(ctx.params.id, 'Live session'))));

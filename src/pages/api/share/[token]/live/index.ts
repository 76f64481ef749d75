import { endpoint } from '../../../../../server/http.ts';
import { openStream } from '../../../../../server/live/stream.ts';
import { addressOf, linkPrincipal } from '../../../../../server/live/principal.ts';

/** A share-link visitor's event stream (issue 41): needs the visitor's pass, like the link's other calls. */
export const GET = endpoint(async (ctx) => openStream(ctx.request, await linkPrincipal(ctx, ctx.params.token), addressOf(ctx)));

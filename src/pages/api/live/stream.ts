import { endpoint } from '../../../server/http.ts';
import { openStream } from '../../../server/live/stream.ts';
import { addressOf, liveAs, principalAs } from '../../../server/live/principal.ts';

/** The tab's event stream (issue 41): `?as=staff` in the admin area, `?as=client` in the portal. */
export const GET = endpoint(async (ctx) => openStream(ctx.request, principalAs(ctx, liveAs(ctx.url)), addressOf(ctx)));

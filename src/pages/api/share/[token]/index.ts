import { endpoint, json } from '../../../../server/http.ts';
import { requireVisit } from '../../../../server/sharing/access.ts';
import { shareView } from '../../../../server/sharing/viewer.ts';

/** What the visitor of a link sees: its items (files the link allows) and the guests' comments. */
export const GET = endpoint(async (ctx) => {
  const { link, visit } = await requireVisit(ctx, ctx.params.token);
  return json(await shareView(link, visit, ctx.params.token!));
});

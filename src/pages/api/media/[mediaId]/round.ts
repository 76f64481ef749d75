import { endpoint, json, parseId, readJson } from '../../../../server/http.ts';
import { requirePermission } from '../../../../server/auth/guard.ts';
import { staffOrigin } from '../../../../server/audit/origin.ts';
import { cancelRound, noteOpened, roundBoard, startRound } from '../../../../server/rounds/rounds.ts';
import { roundInputSchema } from '../../../../shared/schemas/rounds.ts';

/** The item's review round as its status board (issue 57); `{ round: null }` when it has none. Opening it counts as the reviewer having looked. */
export const GET = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'view:media');
  const mediaId = parseId(ctx.params.mediaId, 'Media');
  const viewer = { kind: 'staff' as const, userId: user.id };
  await noteOpened(mediaId, viewer);
  return json({ round: await roundBoard(mediaId, viewer) });
});

/** Starts a round: `{ name, stages: [{ name, rule, reviewers, approver?, dueAt? }] }` (edit:media). */
export const POST = endpoint(async (ctx) => {
  const user = requirePermission(ctx, 'edit:media');
  const input = await readJson(ctx.request, roundInputSchema);
  return json({ round: await startRound(parseId(ctx.params.mediaId, 'Media'), input, user.id, staffOrigin(ctx)) }, 201);
});

/** Cancels the round in progress (kept as history). */
export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:media');
  await cancelRound(parseId(ctx.params.mediaId, 'Media'), staffOrigin(ctx));
  return json({ message: 'Review round cancelled' });
});

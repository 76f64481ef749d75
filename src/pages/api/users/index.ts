import { endpoint, json, readJson } from '../../../server/http.ts';
import { actorOf, requirePermission } from '../../../server/auth/guard.ts';
import { createUser, listUsers } from '../../../server/accounts/users.ts';
import { createUserSchema } from '../../../shared/schemas/users.ts';

export const GET = endpoint(async (ctx) => {
  requirePermission(ctx, 'view:users');
  return json(await listUsers());
});

export const POST = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:users');
  const input = await readJson(ctx.request, createUserSchema);
  return json(await createUser(input, actorOf(ctx)), 201);
});

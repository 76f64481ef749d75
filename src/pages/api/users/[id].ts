import { endpoint, json, readJson } from '../../../server/http.ts';
import { isHttps } from '../../../server/proxy.ts';
import { actorOf, requirePermission } from '../../../server/auth/guard.ts';
import { deleteUser, parseUserId, updateUser } from '../../../server/accounts/users.ts';
import { createSession, setSessionCookie } from '../../../server/auth/sessions.ts';
import { updateUserSchema } from '../../../shared/schemas/users.ts';

export const PUT = endpoint(async (ctx) => {
  const actor = requirePermission(ctx, 'edit:users');
  const id = parseUserId(ctx.params.id);
  const input = await readJson(ctx.request, updateUserSchema);
  const { user, endedSessions } = await updateUser(id, input, actorOf(ctx));
  // Changing your own password ends your other sessions but keeps you signed in here, with
  // the second factor this session was made with (issue 56).
  if (endedSessions && id === actor.id) {
    const { token, expiresAt } = await createSession('staff', id, ctx.locals.staffSession?.secondFactor ?? null);
    setSessionCookie(ctx.cookies, 'staff', token, expiresAt, isHttps(ctx));
  }
  return json(user);
});

export const DELETE = endpoint(async (ctx) => {
  requirePermission(ctx, 'edit:users');
  await deleteUser(parseUserId(ctx.params.id), actorOf(ctx));
  return json({ message: 'User deleted' });
});

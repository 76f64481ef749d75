import { endpoint, json, readJson } from '../../../server/http.ts';
import { requireStaff } from '../../../server/auth/guard.ts';
import { notifyModeSchema } from '../../../shared/schemas/notifications.ts';
import { setStaffMode, staffMode } from '../../../server/notifications/preferences.ts';

/** The signed-in staff user's own email notification mode and the address the emails go to. */
export const GET = endpoint(async (ctx) => {
  const user = requireStaff(ctx);
  return json(await staffMode(user.id));
});

export const PUT = endpoint(async (ctx) => {
  const user = requireStaff(ctx);
  const { mode } = await readJson(ctx.request, notifyModeSchema);
  return json(await setStaffMode(user.id, mode));
});

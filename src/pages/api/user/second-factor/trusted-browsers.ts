import { endpoint, json } from '../../../../server/http.ts';
import { ownAccount } from '../../../../server/auth/factors/own.ts';
import { forgetBrowsers } from '../../../../server/auth/factors/manage.ts';

/** Every browser trusted to skip the second factor asks for it again. */
export const DELETE = endpoint(async (ctx) => {
  await forgetBrowsers(ownAccount(ctx, 'staff'));
  return json({ message: 'Trusted browsers forgotten' });
});

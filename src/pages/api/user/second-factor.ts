import { endpoint, json } from '../../../server/http.ts';
import { ownAccount } from '../../../server/auth/factors/own.ts';
import { secondFactorStatus } from '../../../server/auth/factors/manage.ts';
import { policyRequires } from '../../../server/auth/factors/state.ts';

/** The signed-in staff user's second factors (the Security page). */
export const GET = endpoint(async (ctx) => {
  const { account } = ownAccount(ctx, 'staff');
  return json(await secondFactorStatus(ctx, account, await policyRequires(account)));
});

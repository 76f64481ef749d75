import { endpoint, json } from '../../../server/http.ts';
import { ownAccount } from '../../../server/auth/factors/own.ts';
import { secondFactorStatus } from '../../../server/auth/factors/manage.ts';

/** The signed-in client login's second factor (the portal's Security dialog). */
export const GET = endpoint(async (ctx) => json(await secondFactorStatus(ctx, ownAccount(ctx, 'client').account, false)));

import { endpoint, json } from '../../../../../server/http.ts';
import { requireStaff } from '../../../../../server/auth/guard.ts';
import { authenticationOptions } from '../../../../../server/auth/factors/passkeys.ts';

/** A challenge for one of the signed-in user's passkeys, to confirm a change of their factors with it. */
export const POST = endpoint(async (ctx) => json(await authenticationOptions(ctx, requireStaff(ctx).id)));

import { endpoint, json } from '../../../../server/http.ts';
import { authenticationOptions } from '../../../../server/auth/factors/passkeys.ts';

/** A username-less sign-in's first step (issue 56): a challenge any passkey of this site may answer. */
export const POST = endpoint(async (ctx) => json(await authenticationOptions(ctx, null)));

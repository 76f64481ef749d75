import { endpoint, json } from '../../../../../server/http.ts';
import { requireStaff } from '../../../../../server/auth/guard.ts';
import { registrationOptions } from '../../../../../server/auth/factors/passkeys.ts';

/** A new passkey's first step (issue 56): the options for the browser's passkey prompt. */
export const POST = endpoint(async (ctx) => json(await registrationOptions(ctx, requireStaff(ctx))));

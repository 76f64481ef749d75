import { endpoint, json, readJson } from '../../../../server/http.ts';
import { addPasskeySchema } from '../../../../shared/schemas/second-factor.ts';
import { ownAccount } from '../../../../server/auth/factors/own.ts';
import { addOwnPasskey } from '../../../../server/auth/factors/manage.ts';

/** A new passkey's last step: `{ name, response }`; answers it, and the recovery codes when it is the first factor. */
export const POST = endpoint(async (ctx) => {
  const own = ownAccount(ctx, 'staff');
  const { name, response } = await readJson(ctx.request, addPasskeySchema);
  return json(await addOwnPasskey(ctx, own, name, response), 201);
});

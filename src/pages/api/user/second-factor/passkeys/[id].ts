import { endpoint, json, parseId, readJson } from '../../../../../server/http.ts';
import { proveAnyFactorSchema, renamePasskeySchema } from '../../../../../shared/schemas/second-factor.ts';
import { ownAccount } from '../../../../../server/auth/factors/own.ts';
import { removeOwnPasskey, renameOwnPasskey } from '../../../../../server/auth/factors/manage.ts';

/** Renames one of the signed-in user's passkeys. */
export const PATCH = endpoint(async (ctx) => {
  const own = ownAccount(ctx, 'staff');
  const { name } = await readJson(ctx.request, renamePasskeySchema);
  return json({ passkey: await renameOwnPasskey(own, parseId(ctx.params.id, 'Passkey'), name) });
});

/** Removes one, with proof of a factor: `{ code }` (app or recovery code) or `{ passkey }` (an answer to /challenge). */
export const DELETE = endpoint(async (ctx) => {
  const own = ownAccount(ctx, 'staff');
  const id = parseId(ctx.params.id, 'Passkey');
  const proof = await readJson(ctx.request, proveAnyFactorSchema);
  await removeOwnPasskey(ctx, own, id, proof);
  return json({ message: 'Passkey removed' });
});

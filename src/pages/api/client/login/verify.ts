import { endpoint, json, readJson } from '../../../../server/http.ts';
import { verifySecondFactorSchema } from '../../../../shared/schemas/second-factor.ts';
import { finishSignIn } from '../../../../server/auth/factors/sign-in.ts';
import { loadClientPrincipal } from '../../../../server/auth/principals.ts';

/** The client portal sign-in's second step (issue 56). */
export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, verifySecondFactorSchema);
  const account = await finishSignIn(ctx, 'client', input);
  const principal = (await loadClientPrincipal(Number(account.id)))!;
  return json({ clientUser: { id: principal.id, username: principal.username } });
});

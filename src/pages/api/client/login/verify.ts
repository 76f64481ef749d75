import { endpoint, json, readJson } from '../../../../server/http.ts';
import { verifySecondFactorSchema } from '../../../../shared/schemas/second-factor.ts';
import { finishSignIn } from '../../../../server/auth/factors/sign-in.ts';
import { loadClientPrincipal } from '../../../../server/auth/principals.ts';
import { auditFactorSignIn } from '../../../../server/auth/accounts.ts';
import { clientOrigin } from '../../../../server/audit/origin.ts';

/** The client portal sign-in's second step (issue 56). */
export const POST = endpoint(async (ctx) => {
  const input = await readJson(ctx.request, verifySecondFactorSchema);
  const account = await finishSignIn(ctx, 'client', input);
  const principal = (await loadClientPrincipal(Number(account.id)))!;
  await auditFactorSignIn(clientOrigin(ctx, principal), { side: 'client', object: { type: 'client', id: principal.clientId }, login: principal.username }, input.factor, input.trustBrowser);
  return json({ clientUser: { id: principal.id, username: principal.username } });
});

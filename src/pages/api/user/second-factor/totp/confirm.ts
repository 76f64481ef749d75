import { endpoint, json, readJson } from '../../../../../server/http.ts';
import { confirmTotpSchema } from '../../../../../shared/schemas/second-factor.ts';
import { ownAccount } from '../../../../../server/auth/factors/own.ts';
import { finishTotpEnrolment } from '../../../../../server/auth/factors/manage.ts';

/** Enrolment's last step: a code from the new secret; answers the ten recovery codes, once. */
export const POST = endpoint(async (ctx) => {
  const { code } = await readJson(ctx.request, confirmTotpSchema);
  return json({ recoveryCodes: await finishTotpEnrolment(ownAccount(ctx, 'staff'), code) });
});

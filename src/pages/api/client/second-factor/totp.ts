import { endpoint, json } from '../../../../server/http.ts';
import { ownAccount } from '../../../../server/auth/factors/own.ts';
import { beginTotpEnrolment } from '../../../../server/auth/factors/manage.ts';

/** Enrolment's first step: a new secret (QR code and text); nothing changes until it is confirmed. */
export const POST = endpoint(async (ctx) => {
  const { account, name } = ownAccount(ctx, 'client');
  return json(await beginTotpEnrolment(account, name));
});

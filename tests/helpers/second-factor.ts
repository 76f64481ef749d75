// Authenticator codes for tests (issue 56), computed from the secret the enrolment answered,
// as a phone would: @oslojs/otp, 30-second steps, 6 digits.
import { generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect } from 'vitest';
import { until } from './until.ts';
import type { Session } from './http.ts';

const STEP_MS = 30_000;
/** A code must reach the server in the step it was made for: none is made in a step's last this many ms. */
const EDGE_MS = 8_000;

export const stepNow = () => Math.floor(Date.now() / STEP_MS);

/** The code for the step `offset` steps from now. */
export function totpCode(secret: string, offset = 0): string {
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(stepNow() + offset), 6);
}

/** Waits (polling) until the current step has time left, so a code made now is judged in it. */
export async function awayFromStepEdge(): Promise<void> {
  await until('a time step with room left', async () => Date.now() % STEP_MS < STEP_MS - EDGE_MS, STEP_MS);
}

/** A code for `offset` steps from now, made where the server judges it in the same step. */
export async function freshCode(secret: string, offset = 0): Promise<string> {
  await awayFromStepEdge();
  return totpCode(secret, offset);
}

const lastUsed = new Map<string, number>();

/**
 * A code the server has not seen for this secret: the current step's, or the next one's when
 * the current one was used (an accepted code claims its step and every older one). A step
 * boundary passing before the server judges it leaves it within the window either way, so no
 * waiting is needed unless both were used (then until the step moves on).
 */
export async function nextCode(secret: string): Promise<string> {
  const step = await until('a step not yet used', async () => {
    const s = Math.max(stepNow(), (lastUsed.get(secret) ?? -Infinity) + 1);
    return s <= stepNow() + 1 && s;
  }, 2 * STEP_MS);
  lastUsed.set(secret, step);
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);
}

export interface Enrolled {
  secret: string;
  recoveryCodes: string[];
}

/**
 * Sets up an authenticator app for the session's account through the API (`base`:
 * /api/user/second-factor or /api/client/second-factor), confirming with `nextCode`.
 */
export async function enrolTotp(session: Session, base = '/api/user/second-factor'): Promise<Enrolled> {
  const start = await session.json('POST', `${base}/totp`);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const confirm = await session.json('POST', `${base}/totp/confirm`, { code: await nextCode(start.body.secret) });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  return { secret: start.body.secret, recoveryCodes: confirm.body.recoveryCodes };
}

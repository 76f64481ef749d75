// Second factors (issue 56): the payloads of sign-in's second step, enrolment and the account's
// own management, shared by the API and the screens.
import { z } from '../zod.ts';

/** The factor kinds a pending sign-in may be finished with (passkeys join here). */
export const FACTOR_KINDS = ['totp', 'recovery'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

export const TOTP_MESSAGE = 'Enter the 6-digit code from your authenticator app';
export const RECOVERY_MESSAGE = 'Enter one of your recovery codes (16 letters and digits, e.g. abcd-efgh-jkmn-2345)';

/** People type codes with spaces or dashes ("123 456", "abcd-efgh-…"): those are dropped. */
const compact = (s: string) => s.replace(/[\s-]/g, '').toLowerCase();

export const totpCode = z
  .string({ error: TOTP_MESSAGE })
  .max(32, TOTP_MESSAGE)
  .transform(compact)
  .pipe(z.string().regex(/^\d{6}$/, TOTP_MESSAGE));

export const recoveryCode = z
  .string({ error: RECOVERY_MESSAGE })
  .max(64, RECOVERY_MESSAGE)
  .transform(compact)
  .pipe(z.string().regex(/^[a-z2-7]{16}$/, RECOVERY_MESSAGE));

const trustBrowser = z.boolean({ error: 'trustBrowser must be true or false' }).default(false);

/** Sign-in's second step: one shape per factor kind. */
export const verifySecondFactorSchema = z.discriminatedUnion(
  'factor',
  [
    z.object({ factor: z.literal('totp'), code: totpCode, trustBrowser }),
    z.object({ factor: z.literal('recovery'), code: recoveryCode, trustBrowser }),
  ],
  { error: `factor must be one of ${FACTOR_KINDS.join(', ')}` },
);
export type VerifySecondFactor = z.infer<typeof verifySecondFactorSchema>;

/** Enrolment's last step: the code the app shows for the new secret. */
export const confirmTotpSchema = z.object({ code: totpCode });

/** Removing a factor or making new recovery codes: proof of a factor (an app code or a recovery code). */
export const proveFactorSchema = z.object({
  code: z
    .string({ error: 'Enter a code from your authenticator app or a recovery code' })
    .max(64)
    .transform(compact)
    .pipe(z.string().regex(/^(\d{6}|[a-z2-7]{16})$/, 'Enter a code from your authenticator app or a recovery code')),
});

/** A role's policy (the roles screen). */
export const rolePolicySchema = z.object({ required: z.boolean({ error: 'required must be true or false' }) });

/** The 202 answer of a sign-in whose password was right and whose second factor is awaited. */
export interface SecondStep {
  message: string;
  secondFactor: { factors: FactorKind[] };
}

/** What the Security screens show. */
export interface SecondFactorStatus {
  /** A role of this staff user requires a second factor (always false for clients). */
  required: boolean;
  totp: { since: string; lastUsedAt: string | null } | null;
  recoveryCodesLeft: number;
  /** Browsers where a sign-in skips the second factor until their date. */
  trustedBrowsers: number;
  thisBrowserTrusted: boolean;
}

/** Enrolment's first step: the new secret, to scan or type. */
export interface TotpEnrolment {
  /** Base32, as authenticator apps take it typed. */
  secret: string;
  uri: string;
  /** The QR code of `uri`: `size` modules a side, `path` the dark ones (SVG path data). */
  qr: { size: number; path: string };
}

export const ENROL_FIRST = 'Your role requires a second factor. Set up an authenticator app before you go on.';
export const ENROL_PAGE = '/auth/enrol';

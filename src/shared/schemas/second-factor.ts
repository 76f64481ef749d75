// Second factors (issue 56): the payloads of sign-in's second step, enrolment and the account's
// own management, shared by the API and the screens.
import { z } from '../zod.ts';
import { nameText } from './text.ts';

/** The factor kinds a pending sign-in may be finished with. */
export const FACTOR_KINDS = ['totp', 'recovery', 'passkey'] as const;
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

const PASSKEY_RESPONSE = 'response must be what the browser answered for the passkey';
const base64url = (max: number) => z.string({ error: PASSKEY_RESPONSE }).max(max, PASSKEY_RESPONSE).regex(/^[A-Za-z0-9_-]*$/, PASSKEY_RESPONSE);

/**
 * A WebAuthn answer as @simplewebauthn/browser gives it (base64url fields). Only its outline is
 * checked here; the server's verification reads the rest and refuses what does not hold.
 */
export const passkeyResponse = z.object(
  {
    id: base64url(1400).min(1, PASSKEY_RESPONSE),
    rawId: base64url(1400),
    type: z.literal('public-key', { error: PASSKEY_RESPONSE }),
    response: z.object(
      {
        clientDataJSON: base64url(16_384),
        attestationObject: base64url(65_536).optional(),
        authenticatorData: base64url(16_384).optional(),
        signature: base64url(8_192).optional(),
        userHandle: base64url(256).optional(),
        transports: z.array(z.string().max(32)).max(10).optional(),
        publicKeyAlgorithm: z.number().optional(),
        publicKey: base64url(8_192).optional(),
      },
      { error: PASSKEY_RESPONSE },
    ),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  },
  { error: PASSKEY_RESPONSE },
);
export type PasskeyResponse = z.infer<typeof passkeyResponse>;

/** Sign-in's second step: one shape per factor kind. */
export const verifySecondFactorSchema = z.discriminatedUnion(
  'factor',
  [
    z.object({ factor: z.literal('totp'), code: totpCode, trustBrowser }),
    z.object({ factor: z.literal('recovery'), code: recoveryCode, trustBrowser }),
    z.object({ factor: z.literal('passkey'), response: passkeyResponse, trustBrowser }),
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

/** A staff user's own changes: proof of a factor, a code as above or one of the account's passkeys. */
export const proveAnyFactorSchema = z.union([proveFactorSchema, z.object({ passkey: passkeyResponse })], {
  error: 'Confirm with a code from your authenticator app, a recovery code or one of your passkeys',
});

/** What the person calls a passkey (“Work laptop”), to tell several apart. */
export const passkeyName = nameText('Passkey name', 60, { required: true });

/** A new passkey's last step: its name and what the browser answered. */
export const addPasskeySchema = z.object({ name: passkeyName, response: passkeyResponse });
export const renamePasskeySchema = z.object({ name: passkeyName });

/** A username-less sign-in with a passkey alone. */
export const passkeySignInSchema = z.object({ response: passkeyResponse });

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
  /** Staff only (clients use authenticator codes); oldest first. */
  passkeys: PasskeyInfo[];
  recoveryCodesLeft: number;
  /** Browsers where a sign-in skips the second factor until their date. */
  trustedBrowsers: number;
  thisBrowserTrusted: boolean;
}

export interface PasskeyInfo {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced by its provider to the person's other devices (a password manager, iCloud Keychain). */
  backedUp: boolean;
}

/** A passkey just added; `recoveryCodes` when it is the account's first factor (shown once). */
export interface PasskeyAdded {
  passkey: PasskeyInfo;
  recoveryCodes: string[] | null;
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

// The browser's side of passkeys (issue 56), with @simplewebauthn/browser: ask the server for
// a challenge, let the browser's passkey prompt answer it. The prompt's own errors become
// sentences people can act on.
import { browserSupportsWebAuthn, startAuthentication, startRegistration, type AuthenticationResponseJSON, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { apiJson } from '../../shared/api.ts';

export const passkeysSupported = (): boolean => typeof window !== 'undefined' && browserSupportsWebAuthn();

function promptMessage(e: unknown): string {
  const name = (e as { name?: string; cause?: { name?: string } })?.cause?.name ?? (e as { name?: string })?.name;
  if (name === 'NotAllowedError') return 'The passkey prompt was closed or timed out. Try again when you are ready.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'SecurityError') return 'Passkeys work only on this site’s own address (https, or localhost).';
  return e instanceof Error ? e.message : 'The passkey prompt failed. Try again.';
}

/** The answer of one of the passkeys `optionsPath`'s challenge allows (any, for a username-less sign-in). */
export async function answerWithPasskey(optionsPath: string): Promise<AuthenticationResponseJSON> {
  const optionsJSON = await apiJson<Parameters<typeof startAuthentication>[0]['optionsJSON']>('POST', optionsPath);
  try {
    return await startAuthentication({ optionsJSON });
  } catch (e) {
    throw new Error(promptMessage(e));
  }
}

/** A new passkey made by the browser for `optionsPath`'s options. */
export async function makePasskey(optionsPath: string): Promise<RegistrationResponseJSON> {
  const optionsJSON = await apiJson<Parameters<typeof startRegistration>[0]['optionsJSON']>('POST', optionsPath);
  try {
    return await startRegistration({ optionsJSON });
  } catch (e) {
    throw new Error(promptMessage(e));
  }
}

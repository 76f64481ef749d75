// A software passkey authenticator for API tests (issue 56): what a phone or a security key does
// for `navigator.credentials.create/get`, computed here with node:crypto (P-256, ES256) and the
// CBOR of @simplewebauthn's helpers. Registration answers with "none" attestation; every answer
// is signed by the key, with its own signature counter, so the server's checks run for real.
// Knobs let a test make the answers a broken or hostile authenticator would.
import crypto, { type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));
const sha256 = (b: Uint8Array | string) => new Uint8Array(crypto.createHash('sha256').update(b).digest());
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return new Uint8Array(b);
};

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

interface Key {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  /** base64url of the user id the site gave at registration (the user handle). */
  userHandle: string;
  counter: number;
}

export interface AnswerOptions {
  /** The origin the browser puts in clientDataJSON (a phishing page's, to test refusal). */
  origin?: string;
  /** The relying party the authenticator signs for (its hash starts the authenticator data). */
  rpId?: string;
  /** Whether the device verified its user (PIN, biometrics). */
  uv?: boolean;
  /** Answer with this key (else the first allowed one this authenticator holds, or any). */
  keyId?: string;
  /** The signature counter to report (else one more than the last). */
  counter?: number;
  /** A challenge other than the one asked (a replay of an older answer's). */
  challenge?: string;
}

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: { id: string }[] };

export class SoftAuthenticator {
  readonly keys: Key[] = [];
  readonly origin: string;
  // No parameter properties: the benchmarks import this file with Node's type stripping.
  constructor(origin: string) {
    this.origin = origin;
  }

  /** A new key for the site's creation options: the RegistrationResponseJSON a browser would send. */
  create(options: CreationOptions, o: AnswerOptions = {}) {
    const rpId = o.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const credentialId = new Uint8Array(crypto.randomBytes(16));
    const authData = Buffer.concat([
      sha256(rpId),
      Uint8Array.of(UP | (o.uv === false ? 0 : UV) | AT),
      u32(o.counter ?? 0),
      new Uint8Array(16), // AAGUID: none
      Uint8Array.of(0, credentialId.length),
      credentialId,
      isoCBOR.encode(cose),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: o.challenge ?? options.challenge, origin: o.origin ?? this.origin, crossOrigin: false });
    const id = b64u(credentialId);
    this.keys.push({ id, privateKey, rpId, userHandle: options.user.id, counter: o.counter ?? 0 });
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64u(new TextEncoder().encode(clientDataJSON)), attestationObject: b64u(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** An answer to the site's request options: the AuthenticationResponseJSON a browser would send. */
  get(options: RequestOptions, o: AnswerOptions = {}) {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const key = this.keys.find((k) => (o.keyId ? k.id === o.keyId : !allowed?.length || allowed.includes(k.id)));
    if (!key) throw new Error('this authenticator holds none of the allowed passkeys');
    key.counter = o.counter ?? key.counter + 1;
    const rpId = o.rpId ?? options.rpId ?? key.rpId;
    const authenticatorData = new Uint8Array(Buffer.concat([sha256(rpId), Uint8Array.of(UP | (o.uv === false ? 0 : UV)), u32(key.counter)]));
    const clientDataJSON = new TextEncoder().encode(JSON.stringify({ type: 'webauthn.get', challenge: o.challenge ?? options.challenge, origin: o.origin ?? this.origin, crossOrigin: false }));
    const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id: key.id,
      rawId: key.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authenticatorData), signature: b64u(new Uint8Array(signature)), userHandle: key.userHandle },
      clientExtensionResults: {},
    };
  }
}

// Signing in with a second factor (issue 56), on the embedded file and on sqld (loopback), each a
// server of its own, every sign-in a new browser (no cookies), end to end as the sign-in page
// makes it:
//   - the password alone (the baseline: argon2id and the session),
//   - the password, then a code from an authenticator app (POST /api/login → 202, then
//     POST /api/login/verify): each sample a different account, since a code is taken once,
//   - the password, then a passkey (202, the challenge, the answer),
//   - a passkey alone (the challenge, the answer; no password, so no argon2).
// Passkey answers come from the tests' software authenticator (real P-256 signatures).
// Budget: a sign-in with a code p95 < 300 ms (argon2 included). Ratios against the password
// alone, measured in the same run.
import { generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { fileAndSqldSides, emit, main, ms, sampleLatency } from './lib.mjs';
import { hashPassword } from '../src/server/auth/password.ts';
import { SoftAuthenticator } from '../tests/helpers/passkey-authenticator.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES || 100);
const BUDGET_CODE_P95_MS = 300;
/** A new browser: JSON requests with its own cookies (as the sign-in page sends them). */
class Session {
  cookies = new Map();
  constructor(base) {
    this.base = base;
  }
  async json(method, path, body) {
    const headers = { Origin: this.base, Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
}

const stepCode = (secret, offset = 0) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + offset), 6);

let made = 0;
const PASSWORD = 'bench-password-123';
const passwordHash = await hashPassword(PASSWORD);

/** A staff user (no role: signing in is what is measured). */
async function createStaffUser(server) {
  const username = `bench-${++made}`;
  await server.sql.execute({
    sql: 'INSERT INTO users (id, username, email, password_hash, forename, surname, display_name) VALUES (?, ?, ?, ?, ?, ?, ?)',
    args: [crypto.randomUUID(), username, `${username}@studio.test`, passwordHash, 'Bench', 'User', username],
  });
  return { username, password: PASSWORD };
}

/** A staff user signed in with the password; `factor`: 'totp' (answers its secret) or 'passkey' (its device). */
async function account(server, factor) {
  const u = await createStaffUser(server);
  const s = new Session(server.url);
  const res = await s.json('POST', '/api/login', { username: u.username, password: u.password });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status}`);
  if (factor === 'totp') {
    const { secret } = (await s.json('POST', '/api/user/second-factor/totp')).body;
    const ok = await s.json('POST', '/api/user/second-factor/totp/confirm', { code: stepCode(secret) });
    if (ok.status !== 200) throw new Error(`enrol: ${JSON.stringify(ok.body)}`);
    return { ...u, secret };
  }
  if (factor === 'passkey') {
    const device = new SoftAuthenticator(server.url);
    const options = (await s.json('POST', '/api/user/second-factor/passkeys/options')).body;
    const ok = await s.json('POST', '/api/user/second-factor/passkeys', { name: 'Bench key', response: device.create(options) });
    if (ok.status !== 201) throw new Error(`passkey: ${JSON.stringify(ok.body)}`);
    return { ...u, device };
  }
  return u;
}

main(async () => {
  const { sides, stop } = await fileAndSqldSides('sign-in');
  const results = [];
  try {
    for (const { name, server } of sides) {
      const plain = await account(server, null);
      // One account per sample for codes: the next step's code, accepted once (the window takes ±1 step).
      const coded = [];
      for (let i = 0; i < SAMPLES; i++) coded.push(await account(server, 'totp'));
      const keyed = await account(server, 'passkey');

      const password = await sampleLatency(async () => (await new Session(server.url).json('POST', '/api/login', { username: plain.username, password: plain.password })).status === 200, { count: SAMPLES, concurrency: 2 });
      let next = 0;
      const code = await sampleLatency(async () => {
        const u = coded[next++];
        const s = new Session(server.url);
        if ((await s.json('POST', '/api/login', { username: u.username, password: u.password })).status !== 202) return false;
        return (await s.json('POST', '/api/login/verify', { factor: 'totp', code: stepCode(u.secret, 1) })).status === 200;
      }, { count: SAMPLES, concurrency: 2 });
      // One device answers in turn (its counter must move on in order): one at a time.
      const passkeyStep = await sampleLatency(async () => {
        const s = new Session(server.url);
        if ((await s.json('POST', '/api/login', { username: keyed.username, password: keyed.password })).status !== 202) return false;
        const options = (await s.json('POST', '/api/login/verify/passkey-options')).body;
        return (await s.json('POST', '/api/login/verify', { factor: 'passkey', response: keyed.device.get(options) })).status === 200;
      }, { count: SAMPLES, concurrency: 1 });
      const passkeyAlone = await sampleLatency(async () => {
        const s = new Session(server.url);
        const options = (await s.json('POST', '/api/login/passkey/options')).body;
        return (await s.json('POST', '/api/login/passkey', { response: keyed.device.get(options) })).status === 200;
      }, { count: SAMPLES, concurrency: 1 });
      const rows = { password, code, passkeyStep, passkeyAlone };
      for (const [label, r] of Object.entries(rows)) {
        console.log(`${name}: ${label.padEnd(13)} p50 ${ms(r.p50)}, p95 ${ms(r.p95)} (${(r.p95 / password.p95).toFixed(2)}× the password's p95)${r.failures ? `, ${r.failures} failed` : ''}`);
      }
      results.push({ side: name, ...Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, { p50: r.p50, p95: r.p95, failures: r.failures }])) });
    }
    const ok = results.every((r) => r.code.p95 < BUDGET_CODE_P95_MS && !r.code.failures && !r.passkeyStep.failures && !r.passkeyAlone.failures);
    console.log(`Budget: a sign-in with a code p95 < ${BUDGET_CODE_P95_MS} ms: ${ok ? 'met' : 'NOT met'} (${results.map((r) => `${r.side} ${r.code.p95.toFixed(1)} ms`).join(', ')})`);
    emit('sign-in', { samples: SAMPLES, budgetCodeP95Ms: BUDGET_CODE_P95_MS, results, ok });
  } finally {
    await stop();
  }
});

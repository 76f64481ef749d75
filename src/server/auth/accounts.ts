// Sign-in for staff users and client users: one message for every failure, throttled.
import { eq, or, sql, count } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, roles, userRoles, users } from '../../db/schema.ts';
import { HttpError } from '../http.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.ts';
import { release, reserveAttempt } from './throttle.ts';
import { loadStaffUser, type StaffUser } from './principals.ts';
import { audit, auditIn, type AuditOrigin } from '../audit/record.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';

/**
 * `trusted(accountId)`: the id of the caller's device when that account signed in from it
 * before (devices.ts), so its attempts are counted on their own.
 */
type TrustedDevice = (accountId: string | number) => Promise<string | null>;
const noDevice: TrustedDevice = async () => null;

/** A sign-in attempt's account, when the login named one, for its audit row. */
interface Attempt {
  side: 'staff' | 'client';
  login: string;
  account: { key: string; name: string; objectType: 'user' | 'client'; objectId: string | number } | null;
}

/**
 * Runs a sign-in with its audit rows (issue 56): throttled, failed (with the reason, which only
 * the audit log tells), or succeeded with the factor checked ('password'). Each row is written
 * before the answer goes.
 */
async function audited<T>(origin: AuditOrigin, a: Attempt, check: () => Promise<{ ok: true; value: T } | { ok: false; reason: string }>): Promise<T> {
  const who: AuditOrigin = a.account ? { ...origin, actor: { type: a.side, key: a.account.key, name: a.account.name } } : { ...origin, actor: { type: 'anonymous', key: 'anonymous', name: a.login.slice(0, 100) } };
  const object = a.account ? { type: a.account.objectType, id: a.account.objectId, name: a.account.name } : null;
  const detail = { as: a.side, login: a.login.slice(0, 100) };
  let outcome: Awaited<ReturnType<typeof check>>;
  try {
    outcome = await check();
  } catch (e) {
    if (e instanceof HttpError && e.status === 429) await audit(db, who, { kind: 'sign_in.throttled', object, factor: 'password', detail });
    throw e;
  }
  if (!outcome.ok) {
    await audit(db, who, { kind: 'sign_in.failed', object, factor: 'password', detail: { ...detail, reason: outcome.reason } });
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  await audit(db, who, { kind: 'sign_in.succeeded', object, factor: 'password', detail });
  return outcome.value;
}

/** `origin`: where the attempt comes from (its actor is filled in here, from the login). */
export async function authenticateStaff(login: string, password: string, origin: AuditOrigin, trusted: TrustedDevice = noDevice): Promise<StaffUser> {
  const needle = login.trim();
  const [row] = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(or(sql`lower(${users.username}) = lower(${needle})`, sql`lower(${users.email}) = lower(${needle})`))
    .limit(1);
  const name = row ? `${row.displayName || row.username} (${row.username})` : '';
  const account = row ? { key: `staff:${row.id}`, name, objectType: 'user' as const, objectId: row.id } : null;
  return audited(origin, { side: 'staff', login: needle, account }, async () => {
    // Counted before the (slow) password check, so parallel guesses cannot outrun the throttle.
    const reservation = await reserveAttempt('staff', needle, row?.id ?? null, origin.ip, row ? await trusted(row.id) : null);
    const ok = row ? await verifyPassword(row.passwordHash, password) : (await burnPasswordCheck(password), false);
    // An inactive account gets the same answer as a wrong password: no enumeration.
    if (!row || !ok || !row.isActive) return { ok: false, reason: !row ? 'unknown login' : !ok ? 'wrong password' : 'account inactive' };
    await release(reservation);
    return { ok: true, value: (await loadStaffUser(row.id))! };
  });
}

export async function authenticateClient(username: string, password: string, origin: AuditOrigin, trusted: TrustedDevice = noDevice) {
  const needle = username.trim();
  const [row] = await db
    .select({
      id: clientUsers.id,
      clientId: clientUsers.clientId,
      name: clients.name,
      username: clientUsers.username,
      passwordHash: clientUsers.passwordHash,
      isActive: clientUsers.isActive,
      clientActive: clients.isActive,
    })
    .from(clientUsers)
    .innerJoin(clients, eq(clients.id, clientUsers.clientId))
    .where(or(sql`lower(${clientUsers.username}) = lower(${needle})`, sql`lower(${clientUsers.email}) = lower(${needle})`))
    .limit(1);
  const account = row ? { key: `client:${row.clientId}`, name: `${row.name} (${row.username})`, objectType: 'client' as const, objectId: row.clientId } : null;
  return audited(origin, { side: 'client', login: needle, account }, async () => {
    const reservation = await reserveAttempt('client', needle, row?.id ?? null, origin.ip, row ? await trusted(row.id) : null);
    const ok = row ? await verifyPassword(row.passwordHash, password) : (await burnPasswordCheck(password), false);
    if (!row || !ok || !row.isActive || !row.clientActive) return { ok: false, reason: !row ? 'unknown login' : !ok ? 'wrong password' : 'account inactive' };
    await release(reservation);
    await db.update(clientUsers).set({ lastLoginAt: new Date() }).where(eq(clientUsers.id, row.id));
    return { ok: true, value: { id: row.id, username: row.username } };
  });
}

export interface RegistrationInput {
  username: string;
  email: string;
  password: string;
  forename?: string;
  surname?: string;
  displayName?: string;
}

/**
 * Registration is open only while no user exists (that first user becomes Admin) or when
 * ALLOW_REGISTRATION is on (new users get no roles).
 */
export async function registerStaff(input: RegistrationInput, allowRegistration: boolean, origin: AuditOrigin): Promise<StaffUser> {
  const passwordHash = await hashPassword(input.password);
  const id = await db.transaction(async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(users);
    const first = n === 0;
    if (!first && !allowRegistration) {
      throw new HttpError(403, 'Registration is closed. Ask an administrator to create your account.');
    }
    const clash = await tx
      .select({ username: users.username })
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${input.username})`, sql`lower(${users.email}) = lower(${input.email})`))
      .limit(1);
    if (clash.length) throw new HttpError(409, 'That username or email is already registered');
    const forename = input.forename ?? '';
    const surname = input.surname ?? '';
    const [created] = await tx
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        passwordHash,
        forename,
        surname,
        displayName: input.displayName || `${forename} ${surname}`.trim() || input.username,
      })
      .returning({ id: users.id });
    if (first) {
      const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Admin')).limit(1);
      if (admin) await tx.insert(userRoles).values({ userId: created!.id, roleId: admin.id });
    }
    const name = `${input.displayName || `${forename} ${surname}`.trim() || input.username} (${input.username})`;
    await auditIn(tx, { ...origin, actor: { type: 'staff', key: `staff:${created!.id}`, name } }, {
      kind: 'user.created',
      object: { type: 'user', id: created!.id, name },
      detail: { via: 'registration', roles: first ? ['Admin'] : [] },
    });
    return created!.id;
  });
  return (await loadStaffUser(id))!;
}

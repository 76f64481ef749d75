// Sign-in for staff users and client users: one message for every failure, throttled.
import { eq, or, sql, count } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients, roles, userRoles, users } from '../../db/schema.ts';
import { HttpError } from '../http.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.ts';
import { release, reserveAttempt } from './throttle.ts';
import { loadStaffUser, type StaffUser } from './principals.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';

/**
 * `trusted(accountId)`: the id of the caller's device when that account signed in from it
 * before (devices.ts), so its attempts are counted on their own.
 */
type TrustedDevice = (accountId: string | number) => Promise<string | null>;
const noDevice: TrustedDevice = async () => null;

export async function authenticateStaff(login: string, password: string, ip: string | null, trusted: TrustedDevice = noDevice): Promise<StaffUser> {
  const needle = login.trim();
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(or(sql`lower(${users.username}) = lower(${needle})`, sql`lower(${users.email}) = lower(${needle})`))
    .limit(1);
  // Counted before the (slow) password check, so parallel guesses cannot outrun the throttle.
  const reservation = await reserveAttempt('staff', needle, row?.id ?? null, ip, row ? await trusted(row.id) : null);
  const ok = row ? await verifyPassword(row.passwordHash, password) : (await burnPasswordCheck(password), false);
  // An inactive account gets the same answer as a wrong password: no enumeration.
  if (!row || !ok || !row.isActive) throw new HttpError(401, INVALID_CREDENTIALS);
  await release(reservation);
  return (await loadStaffUser(row.id))!;
}

export async function authenticateClient(username: string, password: string, ip: string | null, trusted: TrustedDevice = noDevice) {
  const needle = username.trim();
  const [row] = await db
    .select({
      id: clientUsers.id,
      username: clientUsers.username,
      passwordHash: clientUsers.passwordHash,
      isActive: clientUsers.isActive,
      clientActive: clients.isActive,
    })
    .from(clientUsers)
    .innerJoin(clients, eq(clients.id, clientUsers.clientId))
    .where(or(sql`lower(${clientUsers.username}) = lower(${needle})`, sql`lower(${clientUsers.email}) = lower(${needle})`))
    .limit(1);
  const reservation = await reserveAttempt('client', needle, row?.id ?? null, ip, row ? await trusted(row.id) : null);
  const ok = row ? await verifyPassword(row.passwordHash, password) : (await burnPasswordCheck(password), false);
  if (!row || !ok || !row.isActive || !row.clientActive) throw new HttpError(401, INVALID_CREDENTIALS);
  await release(reservation);
  await db.update(clientUsers).set({ lastLoginAt: new Date() }).where(eq(clientUsers.id, row.id));
  return { id: row.id, username: row.username };
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
export async function registerStaff(input: RegistrationInput, allowRegistration: boolean): Promise<StaffUser> {
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
    return created!.id;
  });
  return (await loadStaffUser(id))!;
}

// Each person's choice: 'immediately', 'digest' or 'off' (staff on their profile, clients in
// the portal). A change applies to events from then on; held rows still go in the next digest.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, users } from '../../db/schema.ts';
import type { NotifyMode } from '../../shared/schemas/notifications.ts';

export async function staffMode(userId: string): Promise<NotifyMode> {
  const [u] = await db.select({ mode: users.notifyMode }).from(users).where(eq(users.id, userId)).limit(1);
  return u?.mode ?? 'off';
}

export async function setStaffMode(userId: string, mode: NotifyMode): Promise<NotifyMode> {
  await db.update(users).set({ notifyMode: mode }).where(eq(users.id, userId));
  return mode;
}

export async function clientMode(clientUserId: number): Promise<NotifyMode> {
  const [u] = await db.select({ mode: clientUsers.notifyMode }).from(clientUsers).where(eq(clientUsers.id, clientUserId)).limit(1);
  return u?.mode ?? 'immediately';
}

export async function setClientMode(clientUserId: number, mode: NotifyMode): Promise<NotifyMode> {
  await db.update(clientUsers).set({ notifyMode: mode }).where(eq(clientUsers.id, clientUserId));
  return mode;
}

// Each person's choice: 'immediately', 'digest' or 'off' (staff on their profile, clients in
// the portal). A change applies to events from then on; held rows still go in the next digest.
import { and, eq, isNull } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, users } from '../../db/schema.ts';
import type { NotifyMode, NotifyModeAnswer } from '../../shared/schemas/notifications.ts';

/** The mode and the address the emails go to (the dialogs show both). */
export async function staffMode(userId: string): Promise<NotifyModeAnswer> {
  const [u] = await db.select({ mode: users.notifyMode, address: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return { mode: u?.mode ?? 'off', address: u?.address ?? '' };
}

/** Choosing a mode (in the dialog or the bell's question) also answers the one-time question. */
export async function setStaffMode(userId: string, mode: NotifyMode): Promise<NotifyModeAnswer> {
  await db.update(users).set({ notifyMode: mode, notifyPromptedAt: new Date() }).where(eq(users.id, userId));
  return staffMode(userId);
}

/**
 * The user uploaded or assigned an item (issue 32): from now on the bell asks them once
 * whether they want emails. Only the first time counts.
 */
export async function noteStaffActed(userId: string): Promise<void> {
  await db
    .update(users)
    .set({ notifyAskSince: new Date() })
    .where(and(eq(users.id, userId), isNull(users.notifyAskSince)));
}

export async function clientMode(clientUserId: number): Promise<NotifyModeAnswer> {
  const [u] = await db.select({ mode: clientUsers.notifyMode, address: clientUsers.email }).from(clientUsers).where(eq(clientUsers.id, clientUserId)).limit(1);
  return { mode: u?.mode ?? 'immediately', address: u?.address ?? '' };
}

export async function setClientMode(clientUserId: number, mode: NotifyMode): Promise<NotifyModeAnswer> {
  await db.update(clientUsers).set({ notifyMode: mode }).where(eq(clientUsers.id, clientUserId));
  return clientMode(clientUserId);
}

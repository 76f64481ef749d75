// Client accounts and their portal logins (client_users). A client and its login are created
// together; deleting a client removes its login, sessions and media links (FK cascades).
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientUsers, clients } from '../../db/schema.ts';
import { HttpError, notFound } from '../http.ts';
import { hashPassword } from '../auth/password.ts';
import { invalidateAllSessions } from '../auth/sessions.ts';
import type { ClientDetails, ClientDownloads, CreateClient } from '../../shared/schemas/clients.ts';
import { setClientGate } from '../sharing/client-gate.ts';
import { audit, auditIn, type AuditOrigin } from '../audit/record.ts';
import { resetSecondFactors } from '../auth/factors/manage.ts';

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];
type Reader = typeof db | Tx;

const clientColumns = {
  id: clients.id,
  name: clients.name,
  email: clients.email,
  phone: clients.phone,
  company: clients.company,
  notes: clients.notes,
  isActive: clients.isActive,
  createdBy: clients.createdBy,
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
  // Each client has exactly one login (created with it), so the join adds no rows.
  username: clientUsers.username,
  // The client sees only watermarked previews (issue 17, src/server/sharing/client-watermark.ts).
  downloadsAfterApproval: clients.downloadsAfterApproval,
  watermarkPreviews: sql<boolean>`EXISTS (SELECT 1 FROM share_links l WHERE l.client_id = "clients"."id" AND l.revoked_at IS NULL)`.mapWith(Boolean),
  // The portal login turned on an authenticator app (issue 56): staff may reset it.
  secondFactor: sql<boolean>`EXISTS (SELECT 1 FROM totp_factors t WHERE t.client_user_id = "client_users"."id" AND t.confirmed_at IS NOT NULL)`.mapWith(Boolean),
};

// An erased client (issue 56) is gone from every list and answers 404, as a deleted one does.
const selectClients = (r: Reader) =>
  r.select(clientColumns).from(clients).leftJoin(clientUsers, eq(clientUsers.clientId, clients.id));

export async function listClients() {
  return selectClients(db).where(isNull(clients.erasedAt)).orderBy(desc(clients.createdAt), desc(clients.id));
}

export async function getClient(id: number, r: Reader = db) {
  const [row] = await selectClients(r).where(and(eq(clients.id, id), isNull(clients.erasedAt))).limit(1);
  if (!row) throw notFound('Client not found');
  return row;
}

const lower = (col: typeof clients.email | typeof clientUsers.email | typeof clientUsers.username, value: string) =>
  sql`lower(${col}) = lower(${value})`;

/** 409 when another client or portal login already uses this email (case-insensitive). */
async function assertEmailFree(tx: Tx, email: string, clientId?: number) {
  const [client] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(and(lower(clients.email, email), clientId ? ne(clients.id, clientId) : undefined))
    .limit(1);
  const [login] = await tx
    .select({ id: clientUsers.id })
    .from(clientUsers)
    .where(and(lower(clientUsers.email, email), clientId ? ne(clientUsers.clientId, clientId) : undefined))
    .limit(1);
  if (client || login) throw new HttpError(409, `The email "${email}" is already used by another client`);
}

export async function createClient(input: CreateClient, createdBy: string, origin: AuditOrigin) {
  const passwordHash = await hashPassword(input.password);
  const id = await db.transaction(async (tx) => {
    await assertEmailFree(tx, input.email);
    const [taken] = await tx.select({ id: clientUsers.id }).from(clientUsers).where(lower(clientUsers.username, input.username)).limit(1);
    if (taken) throw new HttpError(409, `The username "${input.username}" is already taken by another client`);
    const [client] = await tx
      .insert(clients)
      .values({ name: input.name, email: input.email, phone: input.phone, company: input.company, notes: input.notes, createdBy })
      .returning({ id: clients.id });
    await tx.insert(clientUsers).values({ clientId: client!.id, username: input.username, email: input.email, passwordHash });
    await auditIn(tx, origin, { kind: 'client.created', object: { type: 'client', id: client!.id, name: input.name }, detail: { login: input.username } });
    return client!.id;
  });
  return getClient(id);
}

export async function updateClient(id: number, input: ClientDetails, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const before = await getClient(id, tx);
    await assertEmailFree(tx, input.email, id);
    await tx
      .update(clients)
      .set({ name: input.name, email: input.email, phone: input.phone, company: input.company, notes: input.notes, updatedAt: new Date() })
      .where(eq(clients.id, id));
    // The login shares the client's email so the portal accepts either username or email.
    await tx.update(clientUsers).set({ email: input.email }).where(eq(clientUsers.clientId, id));
    const changed = (['name', 'email', 'phone', 'company', 'notes'] as const).filter((k) => before[k] !== input[k]);
    if (changed.length) await auditIn(tx, origin, { kind: 'client.updated', object: { type: 'client', id, name: input.name }, detail: { changed } });
  });
  return getClient(id);
}

/** Sets a new portal password and signs the client out everywhere. */
export async function resetClientPassword(id: number, password: string, origin: AuditOrigin) {
  const passwordHash = await hashPassword(password);
  const logins = await db.transaction(async (tx) => {
    const client = await getClient(id, tx);
    const rows = await tx.update(clientUsers).set({ passwordHash }).where(eq(clientUsers.clientId, id)).returning({ id: clientUsers.id });
    if (!rows.length) throw notFound('This client has no portal login');
    await auditIn(tx, origin, { kind: 'client.password_reset', object: { type: 'client', id, name: client.name } });
    return rows;
  });
  for (const { id: loginId } of logins) await invalidateAllSessions('client', loginId);
}

/** Resets the second factor of the client's portal logins (a lost phone, issue 56); they are signed out everywhere. */
export async function resetClientSecondFactors(id: number, origin: AuditOrigin): Promise<void> {
  const client = await getClient(id);
  const logins = await db.select({ id: clientUsers.id }).from(clientUsers).where(eq(clientUsers.clientId, id));
  if (!logins.length) throw notFound('This client has no portal login');
  let had = false;
  for (const login of logins) had = (await resetSecondFactors({ kind: 'client', id: login.id })) || had;
  if (!had) throw new HttpError(409, 'This client has no authenticator app to reset.');
  await audit(db, origin, { kind: 'client.second_factor_reset', object: { type: 'client', id, name: client.name } });
}

export async function deleteClient(id: number, origin: AuditOrigin) {
  await db.transaction(async (tx) => {
    const client = await getClient(id, tx);
    await tx.delete(clients).where(eq(clients.id, id));
    await auditIn(tx, origin, { kind: 'client.deleted', object: { type: 'client', id, name: client.name } });
  });
}

/** Whether the client's downloads wait for approval (issue 30, src/server/review/download-gate.ts). */
export async function getClientDownloads(id: number): Promise<ClientDownloads> {
  const [row] = await db.select({ downloadsAfterApproval: clients.downloadsAfterApproval }).from(clients).where(eq(clients.id, id)).limit(1);
  if (!row) throw notFound('Client not found');
  return { downloadsAfterApproval: row.downloadsAfterApproval };
}

/**
 * Switches "downloads wait for approval" on or off; applies to the client's next request. The
 * client's clean previews for the closed gate (issue 40) follow the switch.
 */
export async function setClientDownloads(id: number, input: ClientDownloads, staffUserId: string, origin: AuditOrigin): Promise<ClientDownloads> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(clients)
      .set({ downloadsAfterApproval: input.downloadsAfterApproval, updatedAt: new Date() })
      .where(eq(clients.id, id))
      .returning({ downloadsAfterApproval: clients.downloadsAfterApproval, name: clients.name });
    if (!done.length) throw notFound('Client not found');
    await auditIn(tx, origin, { kind: 'client.updated', object: { type: 'client', id, name: done[0]!.name }, detail: { downloadsAfterApproval: input.downloadsAfterApproval } });
    await setClientGate(tx, id, input.downloadsAfterApproval, staffUserId);
    return { downloadsAfterApproval: done[0]!.downloadsAfterApproval };
  });
}

// Idempotent seed: safe to run at every start; it only adds what is missing.
import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Database } from './client.ts';
import {
  brandingSettings,
  clientUsers,
  clients,
  contactInfo,
  permissions,
  rolePermissions,
  roles,
  seoSettings,
  siteState,
  userRoles,
  users,
  websiteSettings,
  WEBSITE_SECTIONS,
} from './schema.ts';
import { DEFAULT_COMPANY_NAME, DEFAULT_SEO, DEMO_CLIENT, PERMISSIONS, ROLES } from './seed-data.ts';
import { hashPassword } from '../server/auth/password.ts';
import { passwordProblem } from '../shared/passwords.ts';
import { CONTACT_PLACEHOLDERS } from '../components/content.ts';

export interface SeedOptions {
  adminUsername: string;
  adminEmail: string;
  adminPassword?: string;
  demoContent: boolean;
  log?: (line: string) => void;
  /** Adds demo media; supplied by the media library so the seed needs no file handling of its own. */
  seedDemoMedia?: (db: Database, clientId: number | null) => Promise<void>;
}

export interface SeedResult {
  generatedAdminPassword?: string;
  createdAdmin: boolean;
  createdDemoClient: boolean;
}

export async function seed(db: Database, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const result: SeedResult = { createdAdmin: false, createdDemoClient: false };

  await db.insert(permissions).values(PERMISSIONS).onConflictDoNothing();
  await db
    .insert(roles)
    .values(ROLES.map(({ name, description, isProtected }) => ({ name, description, isProtected })))
    .onConflictDoNothing();
  const allPerms = await db.select().from(permissions);
  const roleRows = await db.select().from(roles).where(inArray(roles.name, ROLES.map((r) => r.name)));
  for (const role of ROLES) {
    const row = roleRows.find((r) => r.name === role.name)!;
    const wanted = role.permissions === 'all' ? allPerms : allPerms.filter((p) => role.permissions.includes(p.name));
    if (wanted.length) {
      await db
        .insert(rolePermissions)
        .values(wanted.map((p) => ({ roleId: row.id, permissionId: p.id })))
        .onConflictDoNothing();
    }
  }

  const [{ n: userCount }] = await db.select({ n: count() }).from(users);
  if (userCount === 0) {
    const password = opts.adminPassword ?? randomBytes(18).toString('base64url');
    if (!opts.adminPassword) result.generatedAdminPassword = password;
    // The staff rules apply to the first admin's password too (issue 53); only here, when it is
    // set: an install whose admin exists starts whatever ADMIN_PASSWORD still says.
    const problem = passwordProblem(password, 'staff', { username: opts.adminUsername, email: opts.adminEmail });
    if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}. Set another, or leave it unset for a generated one.`);
    const [admin] = await db
      .insert(users)
      .values({
        username: opts.adminUsername,
        email: opts.adminEmail,
        passwordHash: await hashPassword(password),
        forename: 'Studio',
        surname: 'Admin',
        displayName: 'Studio Admin',
      })
      // Two processes started together on a new database both see no users: one creates
      // the admin, the other finds it there.
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (admin) {
      const adminRole = roleRows.find((r) => r.name === 'Admin')!;
      await db.insert(userRoles).values({ userId: admin.id, roleId: adminRole.id });
      result.createdAdmin = true;
      log(`Created admin user '${opts.adminUsername}'.`);
    }
  }

  await db.insert(brandingSettings).values({ id: 1, companyName: DEFAULT_COMPANY_NAME, showCompanyText: true }).onConflictDoNothing();
  await db.insert(seoSettings).values({ id: 1, ...DEFAULT_SEO }).onConflictDoNothing();
  await db.insert(contactInfo).values({ id: 1 }).onConflictDoNothing();
  await db.insert(siteState).values({ id: 1, version: 1 }).onConflictDoNothing();
  await db
    .insert(websiteSettings)
    .values(WEBSITE_SECTIONS.map((section) => ({ section })))
    .onConflictDoNothing();

  if (opts.demoContent && result.createdAdmin) {
    const existing = await db.select({ id: clientUsers.id }).from(clientUsers).where(eq(clientUsers.username, DEMO_CLIENT.username));
    let clientId: number | null = null;
    if (!existing.length) {
      const passwordHash = await hashPassword(DEMO_CLIENT.password);
      clientId = await db.transaction(async (tx) => {
        const [client] = await tx
          .insert(clients)
          .values({ name: DEMO_CLIENT.name, email: DEMO_CLIENT.email, company: DEMO_CLIENT.company, phone: DEMO_CLIENT.phone, notes: DEMO_CLIENT.notes })
          .returning({ id: clients.id });
        await tx.insert(clientUsers).values({ clientId: client!.id, username: DEMO_CLIENT.username, email: DEMO_CLIENT.email, passwordHash });
        return client!.id;
      });
      result.createdDemoClient = true;
      log(`Created demo client '${DEMO_CLIENT.name}' (portal login: ${DEMO_CLIENT.username} / ${DEMO_CLIENT.password}).`);
    }
    // The portal's Need Help shows the stored contact details only (a real client must not be
    // sent to a placeholder address): a demo install stores the placeholders the public footer
    // already shows, so the demo client sees a way to reach the studio (issue 39). They still
    // count as placeholders, so the dashboard keeps asking for the real ones.
    await db
      .update(contactInfo)
      .set({ contactEmail: CONTACT_PLACEHOLDERS.email, contactPhone: CONTACT_PLACEHOLDERS.phone, contactAddress: CONTACT_PLACEHOLDERS.address })
      .where(and(eq(contactInfo.id, 1), eq(contactInfo.contactEmail, ''), eq(contactInfo.contactPhone, ''), eq(contactInfo.contactAddress, '')));
    if (opts.seedDemoMedia) await opts.seedDemoMedia(db, clientId);
  }
  return result;
}

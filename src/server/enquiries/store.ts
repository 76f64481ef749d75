// Reading and writing the `enquiries` table.
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { enquiries } from '../../db/schema.ts';
import { notFound } from '../http.ts';
import type { Enquiry, EnquiryData, EnquiryStatus } from '../../shared/schemas/enquiry.ts';

type Row = typeof enquiries.$inferSelect;

function toEnquiry(row: Row): Enquiry {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    projectType: row.projectType,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function createEnquiry(data: Omit<EnquiryData, 'website'>): Promise<Enquiry> {
  const [row] = await db
    .insert(enquiries)
    .values({
      firstName: data.firstName,
      lastName: data.lastName,
      email: data.email,
      projectType: data.projectType,
      message: data.message,
      status: 'new',
    })
    .returning();
  return toEnquiry(row!);
}

/** Case-insensitive substring match; % and _ typed by the user match themselves. */
function contains(column: SQL, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} like ${pattern} escape '\\'`;
}

/** Newest first, optionally by status and by text in the name, email or message. */
export async function listEnquiries(filter: { status?: EnquiryStatus; q?: string } = {}): Promise<Enquiry[]> {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(enquiries.status, filter.status));
  const q = filter.q?.trim();
  if (q) {
    where.push(
      or(
        contains(sql`(${enquiries.firstName} || ' ' || ${enquiries.lastName})`, q),
        contains(sql`${enquiries.email}`, q),
        contains(sql`${enquiries.message}`, q),
      )!,
    );
  }
  const rows = await db
    .select()
    .from(enquiries)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(enquiries.createdAt), desc(enquiries.id));
  return rows.map(toEnquiry);
}

export async function setEnquiryStatus(id: number, status: EnquiryStatus): Promise<Enquiry> {
  const [row] = await db.update(enquiries).set({ status }).where(eq(enquiries.id, id)).returning();
  if (!row) throw notFound('Enquiry not found');
  return toEnquiry(row);
}

/** For the dashboard's 'New Enquiries' card. */
export async function countNewEnquiries(): Promise<number> {
  const [row] = await db.select({ n: count() }).from(enquiries).where(eq(enquiries.status, 'new'));
  return row?.n ?? 0;
}

// Dashboard figures (001 §3 Stats). Each is one COUNT query; rows are never loaded.
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { db } from '../db/index.ts';
import { clients, enquiries, media, permissions, roles, users } from '../db/schema.ts';

export interface Stats {
  totalMedia: number;
  activeClients: number;
  /** Active staff user accounts. */
  staffMembers: number;
  featuredMedia: number;
  totalRoles: number;
  totalPermissions: number;
  /** Enquiries still in status 'new'. */
  newEnquiries: number;
  /** Items assigned to a client whose current version has no decision yet (issue 16). */
  awaitingApproval: number;
  /** Items whose current version came back with "Changes requested" (issue 29): work for staff. */
  changesRequested: number;
}

/** SQL: the item is assigned to a client and its current version is still "In review". */
// Written with the table name: drizzle leaves columns bare in a one-table count, and a bare id
// inside the subqueries would mean the link's or version's own.
export const awaitingApprovalSql = sql`(
  EXISTS (SELECT 1 FROM media_versions v WHERE v.storage_key = "media"."storage_key" AND v.approval_status = 'in_review')
  AND ("media"."client_id" IS NOT NULL OR EXISTS (SELECT 1 FROM media_clients mc WHERE mc.media_id = "media"."id"))
)`;

/** SQL: the item's current version came back with "Changes requested" (from a client or a link). */
export const changesRequestedSql = sql`EXISTS (SELECT 1 FROM media_versions v WHERE v.storage_key = "media"."storage_key" AND v.approval_status = 'changes_requested')`;

async function countOf(table: SQLiteTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

export async function getStats(): Promise<Stats> {
  // Sequential on purpose: the embedded client serialises queries anyway.
  return {
    // The library's items: stills uploaded into galleries live there (issue 53).
    totalMedia: await countOf(media, isNull(media.galleryId)),
    activeClients: await countOf(clients, eq(clients.isActive, true)),
    staffMembers: await countOf(users, eq(users.isActive, true)),
    featuredMedia: await countOf(media, and(eq(media.isFeatured, true), isNull(media.galleryId))),
    totalRoles: await countOf(roles),
    totalPermissions: await countOf(permissions),
    newEnquiries: await countOf(enquiries, eq(enquiries.status, 'new')),
    awaitingApproval: await countOf(media, awaitingApprovalSql),
    changesRequested: await countOf(media, changesRequestedSql),
  };
}

export interface RecentMedia {
  id: number;
  title: string;
  type: 'image' | 'video';
  isFeatured: boolean;
  createdAt: string;
}

/** The newest uploads for the dashboard card (001 §9: 5 items). */
export async function listRecentMedia(limit = 5): Promise<RecentMedia[]> {
  const rows = await db
    .select({ id: media.id, title: media.title, type: media.type, isFeatured: media.isFeatured, createdAt: media.createdAt })
    .from(media)
    .where(isNull(media.galleryId))
    .orderBy(desc(media.createdAt), desc(media.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

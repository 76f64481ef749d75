// What waits on whom (issue 57 item 2): the items whose open review stage names this person and
// has no decision of theirs on the current version, and the items whose open stage is overdue.
// For the media screen's filters ("Waiting on me", "Overdue") and the client's dashboard; kept
// out of the shared media list, which is the same for every staff user.
import { sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { assignedTo } from '../portal/assigned.ts';
import { media } from '../../db/schema.ts';
import type { Viewer } from './rounds.ts';

export interface WaitingLists {
  waitingOnMe: number[];
  overdue: number[];
}

export async function waitingLists(viewer: Viewer, now = Date.now()): Promise<WaitingLists> {
  const me = viewer.kind === 'staff' ? sql`rv.user_id = ${viewer.userId}` : sql`rv.client_user_id = ${viewer.clientUserId}`;
  // A client's list stays inside what is assigned to them now (an assignment may have ended).
  const visible = viewer.kind === 'client' ? sql`and m.id in (${db.select({ id: media.id }).from(media).where(assignedTo(viewer.clientId))})` : sql``;
  const rows = await db.all<{ media_id: number; mine: number; overdue: number }>(sql`
    SELECT r.media_id,
      max(CASE WHEN ${me} AND NOT EXISTS (
        SELECT 1 FROM review_decisions d WHERE d.reviewer_id = rv.id AND d.version_id = v.id AND d.replaced_at IS NULL) THEN 1 ELSE 0 END) AS mine,
      max(CASE WHEN s.due_at IS NOT NULL AND s.due_at < ${now} THEN 1 ELSE 0 END) AS overdue
    FROM review_rounds r
    JOIN media m ON m.id = r.media_id
    JOIN media_versions v ON v.storage_key = m.storage_key
    JOIN review_stages s ON s.round_id = r.id AND s.status = 'open'
    LEFT JOIN review_stage_reviewers rv ON rv.stage_id = s.id
    WHERE r.origin = 'staff' AND r.status IN ('in_review', 'changes_requested') ${visible}
    GROUP BY r.media_id`);
  return {
    waitingOnMe: rows.filter((r) => Number(r.mine) === 1).map((r) => Number(r.media_id)),
    overdue: viewer.kind === 'staff' ? rows.filter((r) => Number(r.overdue) === 1).map((r) => Number(r.media_id)) : [],
  };
}

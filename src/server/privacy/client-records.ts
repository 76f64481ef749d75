// Everything the studio holds about one client and their logins (issue 56), as named tables of
// plain rows: what the export writes, and the list the erase works through. One query per table;
// times as ISO strings.
import { db } from '../../db/index.ts';

export interface Dataset {
  name: string;
  /** One line saying what it is, for the archive's README. */
  about: string;
  columns: string[];
  rows: Record<string, unknown>[];
}

type Query = { name: string; about: string; sql: string };

// `?1` is the client's id; `L` is the list of its logins' ids (written in as numbers).
const QUERIES: Query[] = [
  { name: 'profile', about: 'The client record', sql: 'SELECT id, name, email, company, phone, notes, is_active, downloads_after_approval, created_at, updated_at FROM clients WHERE id = ?1' },
  { name: 'logins', about: 'Portal logins (never the password)', sql: 'SELECT id, username, email, is_active, notify_mode, created_at, last_login_at FROM client_users WHERE client_id = ?1' },
  { name: 'sessions', about: 'Signed-in sessions now open', sql: 'SELECT s.client_user_id AS login_id, s.created_at, s.expires_at FROM client_sessions s WHERE s.client_user_id IN (L)' },
  {
    name: 'assignments',
    about: 'Media assigned to the client (the files themselves are the studio’s)',
    sql: `SELECT m.id AS media_id, m.title, 'assigned' AS how, mc.created_at AS since FROM media_clients mc JOIN media m ON m.id = mc.media_id WHERE mc.client_id = ?1
          UNION ALL SELECT m.id, m.title, 'own client', m.created_at FROM media m WHERE m.client_id = ?1`,
  },
  {
    name: 'second_factors',
    about: 'Each login’s sign-in protection: the authenticator app (never its secret), recovery codes left, browsers trusted to skip the code',
    sql: `SELECT cu.id AS login_id, t.confirmed_at AS authenticator_added_at, t.last_used_at AS authenticator_last_used_at,
          (SELECT count(*) FROM recovery_codes r WHERE r.client_user_id = cu.id AND r.used_at IS NULL) AS recovery_codes_left,
          (SELECT count(*) FROM trusted_devices d WHERE d.account = 'client:' || cu.id AND d.second_factor_until > CAST(strftime('%s', 'now') AS INTEGER) * 1000) AS trusted_browsers
          FROM client_users cu LEFT JOIN totp_factors t ON t.client_user_id = cu.id AND t.confirmed_at IS NOT NULL WHERE cu.id IN (L)`,
  },
  { name: 'feedback', about: 'Feedback given in the portal', sql: 'SELECT f.id, f.media_id, m.title, f.client_user_id AS login_id, f.rating, f.feedback_text, f.created_at FROM client_feedback f JOIN media m ON m.id = f.media_id WHERE f.client_user_id IN (L)' },
  {
    name: 'timeline_notes',
    about: 'Timeline notes left in the portal',
    sql: 'SELECT n.id, n.media_id, m.title, n.client_user_id AS login_id, coalesce(n.timestamp_ms, n.timestamp_seconds * 1000) AS at_ms, n.end_ms, n.note_text, n.created_at, n.resolved_at FROM timeline_notes n JOIN media m ON m.id = n.media_id WHERE n.client_user_id IN (L)',
  },
  { name: 'replies', about: 'Replies written by the client', sql: 'SELECT r.id, r.feedback_id, r.timeline_note_id, r.author_name, r.reply_text, r.created_at FROM media_replies r WHERE r.client_user_id IN (L)' },
  { name: 'approvals', about: 'Approval decisions', sql: 'SELECT v.media_id, v.number AS version, v.approval_status, v.approval_note, v.approval_at FROM media_versions v WHERE v.approval_by IN (L)' },
  { name: 'galleries', about: 'Proofing galleries shared with the client', sql: 'SELECT g.id, g.title, gc.created_at AS shared_at FROM gallery_clients gc JOIN galleries g ON g.id = gc.gallery_id WHERE gc.client_id = ?1' },
  {
    name: 'picks',
    about: 'Hearts and stars in galleries',
    sql: 'SELECT v.gallery_id, pm.image_id, gi.media_id, pm.heart, pm.stars FROM proof_marks pm JOIN proof_viewers v ON v.id = pm.viewer_id LEFT JOIN gallery_images gi ON gi.id = pm.image_id WHERE v.client_user_id IN (L)',
  },
  {
    name: 'selections',
    about: 'Selection lists picked and submitted',
    sql: `SELECT v.gallery_id, l.name AS list, s.submitted_at, s.reopened_at, si.image_id, gi.media_id FROM selections s JOIN proof_viewers v ON v.id = s.viewer_id
          JOIN selection_lists l ON l.id = s.list_id LEFT JOIN selection_items si ON si.selection_id = s.id LEFT JOIN gallery_images gi ON gi.id = si.image_id WHERE v.client_user_id IN (L)`,
  },
  { name: 'downloads', about: 'Gallery downloads', sql: 'SELECT d.gallery_id, d.media_id, d.file_name, d.tier, d.zip_id IS NOT NULL AS in_zip, d.ip, d.created_at FROM gallery_downloads d WHERE d.client_id = ?1' },
  {
    name: 'emails',
    about: 'Emails sent (or queued) to the client’s logins',
    sql: "SELECT o.id, o.recipient_address, o.subject, o.body, o.status, o.created_at, o.sent_at FROM notification_outbox o WHERE o.recipient_kind = 'client' AND o.recipient_id IN (LT)",
  },
  {
    name: 'audit_log',
    about: 'Rows of the audit log made by the client or about them (sign-ins, downloads, approvals, changes)',
    sql: "SELECT id, at, kind, actor_name, ip, agent, object_type, object_id, object_name, factor, detail FROM audit_log WHERE actor_key = 'client:' || ?1 UNION SELECT id, at, kind, actor_name, ip, agent, object_type, object_id, object_name, factor, detail FROM audit_log WHERE object_type = 'client' AND object_id = CAST(?1 AS TEXT) ORDER BY id",
  },
];

const isTime = (column: string) => column.endsWith('_at') || column === 'at' || column === 'since';

/** The client's logins' ids, or null when there is no such client (or it was erased). */
export async function clientLogins(clientId: number): Promise<number[] | null> {
  const found = await db.$client.execute({ sql: 'SELECT erased_at FROM clients WHERE id = ?', args: [clientId] });
  if (!found.rows.length || found.rows[0]!.erased_at != null) return null;
  const logins = await db.$client.execute({ sql: 'SELECT id FROM client_users WHERE client_id = ?', args: [clientId] });
  return logins.rows.map((r) => Number(r.id));
}

/** Every table above for the client, in order. */
export async function clientRecords(clientId: number, logins: number[]): Promise<Dataset[]> {
  const list = logins.length ? logins.join(', ') : 'NULL';
  const texts = logins.length ? logins.map((l) => `'${l}'`).join(', ') : 'NULL';
  const out: Dataset[] = [];
  for (const q of QUERIES) {
    // Only to queries that name it: a libSQL server refuses arguments a statement does not take.
    const args = q.sql.includes('?1') ? [BigInt(clientId)] : [];
    const result = await db.$client.execute({ sql: q.sql.replaceAll('(LT)', `(${texts})`).replaceAll('(L)', `(${list})`), args });
    const rows = result.rows.map((r) =>
      Object.fromEntries(result.columns.map((c) => [c, isTime(c) && typeof r[c] === 'number' ? new Date(r[c] as number).toISOString() : r[c]])),
    );
    out.push({ name: q.name, about: q.about, columns: result.columns, rows });
  }
  return out;
}

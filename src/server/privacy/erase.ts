// Erasing a client (issue 56, the right to erasure), in one transaction with its audit row: a
// failure anywhere leaves everything as it was.
//  - Logins: sessions, trusted devices, second factors, throttle rows and queued or sent emails
//    go; the login row stays only as an author, renamed "Former client (id)", no email, no
//    usable password, off.
//  - The client row keeps its id and nothing else: "Former client", no contact details, off,
//    erased_at set (gone from every list, 404 for every call, as a deleted client is).
//  - Review threads the studio needs stay: feedback and timeline notes with replies, under
//    "Former client"; the rest of their feedback and notes go. Their replies stay, unnamed.
//  - Files stay (they are the studio's): assignments and gallery shares end, items the client was
//    set on lose the link. Approvals stay (by "Former client"); so do submitted selections (the
//    studio's order), without hearts, stars or lists left unsubmitted. Gallery downloads stay
//    counted, without the name or address.
//  - Their names are taken out of the studio's notifications. The audit log is not touched: it
//    is the security record, chained, and keeps its rows until their retention ends.
import { sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { notFound } from '../http.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';
import { clientActor } from '../notifications/actors.ts';

export const FORMER_CLIENT = 'Former client';

export interface EraseResult {
  clientId: number;
  logins: number;
  keptThreads: number;
  removedNotes: number;
}

export async function eraseClient(clientId: number, origin: AuditOrigin): Promise<EraseResult> {
  return db.transaction(async (tx) => {
    const [client] = await tx.all<{ id: number; name: string }>(sql`SELECT id, name FROM clients WHERE id = ${clientId} AND erased_at IS NULL`);
    if (!client) throw notFound('Client not found');
    const logins = await tx.all<{ id: number; username: string; email: string }>(sql`SELECT id, username, email FROM client_users WHERE client_id = ${clientId}`);
    const ids = logins.length ? sql.join(logins.map((l) => sql`${l.id}`), sql`, `) : sql`NULL`;
    const idTexts = logins.length ? sql.join(logins.map((l) => sql`${String(l.id)}`), sql`, `) : sql`NULL`;
    const accounts = logins.length ? sql.join(logins.map((l) => sql`${`client:${l.id}`}`), sql`, `) : sql`NULL`;
    const run = (q: ReturnType<typeof sql>) => tx.run(q).then((r) => r.rowsAffected);

    // Logins: how they sign in and what they are sent.
    await run(sql`DELETE FROM client_sessions WHERE client_user_id IN (${ids})`);
    await run(sql`DELETE FROM trusted_devices WHERE account IN (${accounts})`);
    // Second factors (issue 56): the authenticator app, recovery codes and pending sign-ins.
    await run(sql`DELETE FROM totp_factors WHERE client_user_id IN (${ids})`);
    await run(sql`DELETE FROM recovery_codes WHERE client_user_id IN (${ids})`);
    await run(sql`DELETE FROM pending_sign_ins WHERE client_user_id IN (${ids})`);
    for (const l of logins) {
      await run(sql`DELETE FROM login_attempts WHERE key LIKE ${`client:%:id:${l.id}@%`} OR key = ${`client:account:id:${l.id}`}
        OR key LIKE ${`client:%:name:${l.username.toLowerCase()}%`} OR key LIKE ${`client:%:name:${l.email.toLowerCase()}%`}
        OR key LIKE ${`client-code:%:id:${l.id}@%`} OR key = ${`client-code:account:id:${l.id}`}`);
    }
    await run(sql`DELETE FROM notification_outbox WHERE recipient_kind = 'client' AND recipient_id IN (${idTexts})`);

    // Review threads: kept where the studio answered, the rest go.
    const removedFeedback = await run(sql`DELETE FROM client_feedback WHERE client_user_id IN (${ids}) AND NOT EXISTS (SELECT 1 FROM media_replies r WHERE r.feedback_id = client_feedback.id)`);
    const removedNotes = await run(sql`DELETE FROM timeline_notes WHERE client_user_id IN (${ids}) AND NOT EXISTS (SELECT 1 FROM media_replies r WHERE r.timeline_note_id = timeline_notes.id)`);
    const [kept] = await tx.all<{ n: number }>(
      sql`SELECT (SELECT count(*) FROM client_feedback WHERE client_user_id IN (${ids})) + (SELECT count(*) FROM timeline_notes WHERE client_user_id IN (${ids})) AS n`,
    );
    await run(sql`UPDATE media_replies SET author_name = ${FORMER_CLIENT}, client_user_id = NULL WHERE client_user_id IN (${ids})`);

    // Files stay the studio's; the client's ties to them end.
    await run(sql`DELETE FROM media_clients WHERE client_id = ${clientId}`);
    await run(sql`UPDATE media SET client_id = NULL WHERE client_id = ${clientId}`);
    await run(sql`DELETE FROM gallery_clients WHERE client_id = ${clientId}`);
    await run(sql`DELETE FROM share_links WHERE client_id = ${clientId}`);
    const viewers = sql`SELECT id FROM proof_viewers WHERE client_user_id IN (${ids})`;
    await run(sql`DELETE FROM proof_marks WHERE viewer_id IN (${viewers})`);
    await run(sql`DELETE FROM selections WHERE submitted_at IS NULL AND viewer_id IN (${viewers})`);
    await run(sql`DELETE FROM proof_viewers WHERE client_user_id IN (${ids}) AND NOT EXISTS (SELECT 1 FROM selections s WHERE s.viewer_id = proof_viewers.id)`);
    await run(sql`UPDATE proof_viewers SET name = ${FORMER_CLIENT}, email = '' WHERE client_user_id IN (${ids})`);
    await run(sql`UPDATE gallery_downloads SET who = ${FORMER_CLIENT}, ip = NULL WHERE client_id = ${clientId}`);

    // Their names, wherever the studio's own records wrote them.
    for (const l of logins) {
      const shown = clientActor({ username: l.username, name: client.name });
      await run(sql`UPDATE notification_events SET actor = ${FORMER_CLIENT}, summary = replace(summary, ${shown}, ${FORMER_CLIENT}) WHERE actor = ${shown}`);
      await run(sql`UPDATE live_participants SET name = ${FORMER_CLIENT} WHERE key = ${`client:${l.id}`}`);
    }
    await run(sql`UPDATE notification_events SET client_id = NULL WHERE client_id = ${clientId}`);

    // The rows themselves: authors of what is kept, holding nothing personal.
    await run(sql`UPDATE client_users SET username = ${`${FORMER_CLIENT} (`} || id || ')', email = 'erased-' || id || '@erased.invalid',
      password_hash = '!erased', is_active = 0, last_login_at = NULL, notify_mode = 'off' WHERE client_id = ${clientId}`);
    const now = Date.now();
    await run(sql`UPDATE clients SET name = ${FORMER_CLIENT}, email = 'erased-client-' || id || '@erased.invalid', company = '', phone = '', notes = '',
      is_active = 0, downloads_after_approval = 0, erased_at = ${now}, updated_at = ${now} WHERE id = ${clientId}`);

    const result = { clientId, logins: logins.length, keptThreads: Number(kept?.n ?? 0), removedNotes: removedFeedback + removedNotes };
    await auditIn(tx, origin, { kind: 'client.erased', object: { type: 'client', id: clientId, name: FORMER_CLIENT }, detail: { logins: result.logins, keptThreads: result.keptThreads, removedNotes: result.removedNotes } });
    return result;
  });
}

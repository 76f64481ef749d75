// Joining a live session with the tab's stream (issue 41; issue 51: only an open stream of the
// caller). The stream may be held by any web process, so a join is a request in the events
// table: the process holding that stream, of that same person, admits them within the session's
// bounds and attaches the stream, then answers in the table (tail.ts). A join no process
// answers named no open stream of its caller: it is refused and admits no one, so no one is
// ever "present" without a stream that ends their presence when it closes.
import { randomBytes } from 'node:crypto';
import { HttpError } from '../http.ts';
import type { LiveSessionView } from '../../shared/schemas/live.ts';
import { appendEvent, parseData } from './log.ts';
import { principalKey, type LivePrincipal } from './principal.ts';
import { spendLive } from './rate.ts';
import { refusal, sessionById, sessionView, type Admission, type SessionRow } from './sessions.ts';
import { ensureRunning, nextRow } from './tail.ts';

/** How long a join waits for the process holding its stream (ample for a libSQL server's 100 ms reads). */
const ANSWER_MS = 5000;

export const NO_STREAM = 'Your live connection is not open: reload the page and join again.';

export async function join(p: LivePrincipal, row: SessionRow, connection: string): Promise<LiveSessionView> {
  spendLive(p, row.id);
  await ensureRunning();
  const nonce = randomBytes(12).toString('base64url');
  const answered = nextRow((r) => r.topic === 'sys-joined' && r.sessionId === row.id && parseData(r).nonce === nonce, ANSWER_MS);
  await appendEvent({ topic: 'sys-join', audience: 'system', mediaId: row.mediaId, sessionId: row.id, data: { connection, key: principalKey(p), nonce } });
  const answer = await answered;
  if (!answer) throw new HttpError(409, NO_STREAM);
  const admission = parseData(answer) as Admission;
  if ('refused' in admission) throw refusal(admission.refused);
  return sessionView(p, (await sessionById(row.id)) ?? row);
}

// Who is in a live session, kept from the streams this process holds: when a person's last
// stream in a session closes they have left (the others see it at once); while one is open the
// heartbeat renews their last-seen time, so a participant (and a presenter) whose web process
// died is noticed (sessions.ts, sweepSessions).
import * as hub from './hub.ts';
import { leave, sessionById, touch } from './sessions.ts';

hub.onClose((conn) => {
  for (const sessionId of conn.sessions.keys()) {
    if (hub.inSession(conn.key, sessionId, conn)) continue;
    void sessionById(sessionId)
      .then((row) => (row && !row.endedAt ? leave(row, conn.key) : undefined))
      .catch((e) => console.error('live: marking a participant gone', e));
  }
});

hub.onHeartbeat(() => {
  const pairs = new Map<string, { sessionId: number; key: string }>();
  for (const c of hub.all()) for (const sessionId of c.sessions.keys()) pairs.set(`${sessionId} ${c.key}`, { sessionId, key: c.key });
  if (pairs.size) void touch([...pairs.values()]).catch((e) => console.error('live: renewing presence', e));
});

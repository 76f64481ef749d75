// The live session calls, one entry for the staff, client and share-link endpoints alike: the
// endpoint says who is asking (principal.ts), this parses the body and does the one thing.
import { HttpError, notFound, readJson } from '../http.ts';
import { liveControlSchema, liveDrawSchema, liveJoinSchema, liveLeaveSchema, livePointerSchema, livePresenceSchema, liveStateSchema } from '../../shared/schemas/live.ts';
import { draw, handOver, pointer, presence, setState } from './control.ts';
import type { LivePrincipal } from './principal.ts';
import { principalKey } from './principal.ts';
import { join } from './join.ts';
import { endBy, leave, openSession, sessionView } from './sessions.ts';

export const LIVE_ACTIONS = ['join', 'leave', 'state', 'presence', 'pointer', 'draw', 'control', 'end'] as const;

/** The body limit of a live message: a drawing's shapes, with room for JSON's own overhead. */
const BODY_LIMIT = 256 * 1024;

export async function viewSession(p: LivePrincipal, sessionId: number) {
  return sessionView(p, await openSession(p, sessionId));
}

export async function runAction(p: LivePrincipal, sessionId: number, action: string | undefined, request: Request): Promise<unknown> {
  if (!LIVE_ACTIONS.includes(action as (typeof LIVE_ACTIONS)[number])) throw notFound('Not found');
  const row = await openSession(p, sessionId);
  switch (action) {
    case 'join': {
      const { connection } = await readJson(request, liveJoinSchema);
      return join(p, row, connection);
    }
    case 'leave': {
      // A tab from before Leave named its stream sends no body.
      const { connection } = request.headers.get('content-type') ? await readJson(request, liveLeaveSchema) : { connection: undefined };
      await leave(row, principalKey(p), connection);
      return { left: true };
    }
    case 'state':
      return { state: await setState(p, row, await readJson(request, liveStateSchema)) };
    case 'presence': {
      const { frame, following } = await readJson(request, livePresenceSchema);
      await presence(p, row, frame, following);
      return { ok: true };
    }
    case 'pointer': {
      const { x, y } = await readJson(request, livePointerSchema);
      await pointer(p, row, x, y);
      return { ok: true };
    }
    case 'draw': {
      const { shapes } = await readJson(request, liveDrawSchema, BODY_LIMIT);
      await draw(p, row, shapes);
      return { ok: true };
    }
    case 'control': {
      const { to } = await readJson(request, liveControlSchema);
      await handOver(p, row, to);
      return { ok: true };
    }
    case 'end':
      return { summary: await endBy(p, row) };
  }
  throw new HttpError(404, 'Not found');
}

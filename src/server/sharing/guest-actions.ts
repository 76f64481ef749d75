// What a share link's visitor may write (issue 17), each only when the link allows it:
// feedback and timeline notes under the guest name typed once, and the approval decision on
// the current version. Every one is written to the link's access log.
import type { APIContext } from 'astro';
import { shareComments } from '../../db/schema.ts';
import { badRequest, HttpError, notFound } from '../http.ts';
import { writeDecision } from '../review/approval.ts';
import { recordEvent } from '../notifications/index.ts';
import { formatTimestamp } from '../../shared/format.ts';
import type { ShareComment } from '../../shared/schemas/share.ts';
import type { z } from '../../shared/zod.ts';
import type { shareApprovalSchema, shareFeedbackSchema, shareNoteSchema } from '../../shared/schemas/share.ts';
import { logAccess, requireVisit, setGuestName, type VisitRow } from './access.ts';
import type { LinkRow } from './links.ts';
import { linkComments, linkItem } from './viewer.ts';
import { checkAgainstDuration, checkNoteTarget, storeShapes } from '../review/note-fields.ts';
import { resolveNoteTime } from '../../shared/schemas/notes.ts';
import { guestOrigin } from '../audit/origin.ts';
import { insertPinned, pinCue, type CuePin } from '../captions/cue-notes.ts';

export const NO_COMMENTS = 'This link does not allow comments.';
export const NO_APPROVAL = 'This link does not allow approving.';
export const NAME_FIRST = 'name: Enter your name first, so the studio knows who wrote this.';

/** The name to write under: the one just typed (kept for the visit) or the one typed before. */
async function guestNameFor(visit: VisitRow, typed: string | undefined): Promise<string> {
  if (typed && typed !== visit.guestName) await setGuestName(visit, typed);
  const name = typed || visit.guestName;
  if (!name) throw badRequest(NAME_FIRST);
  return name;
}

async function target(ctx: APIContext, mediaId: number, need: 'comment' | 'approve') {
  const { link, visit } = await requireVisit(ctx, ctx.params.token);
  if (need === 'comment' && !link.allowComment) throw new HttpError(403, NO_COMMENTS);
  if (need === 'approve' && !link.allowApprove) throw new HttpError(403, NO_APPROVAL);
  const cur = await linkItem(link, mediaId);
  if (!cur) throw notFound('Media not found');
  return { link, visit, cur };
}

async function addComment(ctx: APIContext, link: LinkRow, values: typeof shareComments.$inferInsert, versionNumber: number, pin: CuePin | null = null): Promise<ShareComment> {
  const { row } = await insertPinned('link', pin, async (tx) => (await tx.insert(shareComments).values(values).returning({ id: shareComments.id }))[0]!);
  await logAccess(ctx, link, values.kind === 'note' ? 'note' : 'comment', { mediaId: values.mediaId, guestName: values.guestName, detail: values.text });
  await recordEvent({
    kind: values.kind === 'note' ? 'note' : 'feedback',
    mediaId: values.mediaId,
    versionNumber,
    actor: values.guestName,
    via: 'link',
    detail: values.kind === 'note' ? `At ${formatTimestamp(values.timestampSeconds ?? 0)}: ${values.text}` : `Rating: ${values.rating} out of 5\n\n${values.text}`,
    ...(values.kind === 'note' ? { note: { ms: values.timestampMs ?? (values.timestampSeconds ?? 0) * 1000, text: values.text } } : {}),
  });
  return (await linkComments(link.id, [values.mediaId])).find((c) => c.id === row.id)!;
}

export async function addGuestFeedback(ctx: APIContext, mediaId: number, input: z.output<typeof shareFeedbackSchema>): Promise<ShareComment> {
  const { link, visit, cur } = await target(ctx, mediaId, 'comment');
  const guestName = await guestNameFor(visit, input.name);
  return addComment(ctx, link, { linkId: link.id, mediaId, versionId: cur.version.id, guestName, kind: 'feedback', rating: input.rating, text: input.text }, cur.version.number);
}

export async function addGuestNote(ctx: APIContext, mediaId: number, input: z.output<typeof shareNoteSchema>): Promise<ShareComment> {
  const { link, visit, cur } = await target(ctx, mediaId, 'comment');
  const time = resolveNoteTime(input);
  checkNoteTarget(cur.item.type, input, time);
  checkAgainstDuration(input, time, cur.version.durationSeconds);
  const pin = await pinCue(cur.version.id, input, time.timestampMs);
  const guestName = await guestNameFor(visit, input.name);
  return addComment(ctx, link, {
    linkId: link.id,
    mediaId,
    versionId: cur.version.id,
    guestName,
    kind: 'note',
    timestampSeconds: time.timestampSeconds,
    timestampMs: time.timestampMs,
    endMs: time.endMs,
    shapes: storeShapes(time.shapes),
    text: input.text,
  }, cur.version.number, pin);
}

export async function setGuestApproval(ctx: APIContext, mediaId: number, input: z.output<typeof shareApprovalSchema>) {
  const { link, visit, cur } = await target(ctx, mediaId, 'approve');
  const guestName = await guestNameFor(visit, input.name);
  await writeDecision({ id: cur.version.id, mediaId, number: cur.version.number }, input, { guestName, linkId: link.id }, guestName, 'link', guestOrigin(ctx, link, guestName));
  await logAccess(ctx, link, input.status === 'approved' ? 'approved' : 'changes requested', { mediaId, guestName, detail: input.note });
  return { status: input.status, version: cur.version.number, by: guestName };
}

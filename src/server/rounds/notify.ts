// Telling reviewers (issue 57): when a stage opens its reviewers hear that the item waits on
// them, and staff may remind one who has not decided. Staff get a bell line of their own (only
// their bell shows it) and an email if they chose emails; client logins an email unless they
// turned them off. Like recordEvent: written after the change, a failure logged, never thrown.
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';
import { itemLink, itemPath } from '../notifications/texts.ts';
import { tellPeople } from '../notifications/personal.ts';
import { config } from '../config.ts';
import { oneLine } from '../mail/plain-text.ts';

export interface ReviewerCall {
  mediaId: number;
  versionNumber: number;
  roundName: string;
  stageName: string;
  dueAt: Date | null;
  staffIds: string[];
  clientUserIds: number[];
  /** 'stage_open': the stage has just opened; 'reminder': staff asked again. */
  why: 'stage_open' | 'reminder';
  actor: string;
}

const due = () => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: config.STUDIO_TIME_ZONE });

export async function callReviewers(c: ReviewerCall): Promise<void> {
  try {
    const [item] = await db.select({ title: media.title }).from(media).where(eq(media.id, c.mediaId)).limit(1);
    if (!item) return;
    const title = oneLine(item.title, 120);
    const what = c.why === 'reminder' ? 'Reminder: your decision is awaited' : 'Your decision is awaited';
    const summary = `${what} on "${title}" v${c.versionNumber} (${oneLine(c.stageName, 60)})`;
    const subject = `${c.why === 'reminder' ? 'Reminder: ' : ''}Please review ${title} v${c.versionNumber}`;
    const core = (audience: 'staff' | 'client') =>
      [
        `"${title}" (version ${c.versionNumber}) is waiting on your decision in the review round "${oneLine(c.roundName, 80)}", stage "${oneLine(c.stageName, 60)}".`,
        ...(c.dueAt ? [`Due: ${due().format(c.dueAt)} (${config.STUDIO_TIME_ZONE} time).`] : []),
        '',
        `Approve, approve with changes or request changes here: ${itemLink(audience, c.mediaId)}`,
      ].join('\n');
    await tellPeople({
      kind: 'round',
      mediaId: c.mediaId,
      versionNumber: c.versionNumber,
      actor: c.actor,
      summary,
      subject,
      core,
      path: (audience) => itemPath(audience, c.mediaId),
      staffIds: c.staffIds,
      clientUserIds: c.clientUserIds,
    });
  } catch (error) {
    console.error(`Review round notification for media ${c.mediaId} could not be recorded (the change itself is saved):`, error);
  }
}

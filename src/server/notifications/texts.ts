// The words of every notification: the bell's one line, and plain-text emails that say what
// happened, to what, who did it, and link straight to the item. Plain text only, so nothing a
// client or guest typed is ever interpreted as markup.
import { config } from '../config.ts';
import { oneLine as line, quoted } from '../mail/plain-text.ts';
import type { Audience, EventFacts } from './types.ts';

/** Names and titles come from people (and from rows older than the text rules): one short line. */
const oneLine = (s: string, max = 120) => line(s, max);

/** A note's first non-empty line, short enough for the bell. */
export const firstLine = (text: string) => oneLine(text.split(/\r?\n/).find((l) => l.trim()) ?? '', 100);

export function itemPath(audience: Audience, mediaId: number): string {
  return audience === 'staff' ? `/admin/media?item=${mediaId}` : `/client/dashboard?item=${mediaId}`;
}

export const itemLink = (audience: Audience, mediaId: number) => `${config.siteUrl}${itemPath(audience, mediaId)}`;

const versioned = (f: EventFacts) => `"${oneLine(f.title)}"${f.versionNumber != null ? ` v${f.versionNumber}` : ''}`;
const via = (f: EventFacts) => (f.via === 'link' ? ' (through a share link)' : '');

/** One line: the bell, the digest's entries and the event row. */
export function summaryOf(f: EventFacts): string {
  const actor = oneLine(f.actor, 80);
  switch (f.kind) {
    case 'assigned':
      return `${versioned(f)} was shared with you`;
    case 'new_version':
      return `New version of "${oneLine(f.title)}": v${f.versionNumber}`;
    case 'feedback':
      return `${actor} left feedback on ${versioned(f)}${via(f)}`;
    case 'note':
      return `${actor} left a timeline note on ${versioned(f)}${via(f)}`;
    case 'approval':
      return `${actor} made an approval decision on ${versioned(f)}${via(f)}: ${oneLine(f.detail, 60)}`;
  }
}

export function subjectOf(f: EventFacts): string {
  const actor = oneLine(f.actor, 60);
  switch (f.kind) {
    case 'assigned':
      return `New to review: ${oneLine(f.title)}`;
    case 'new_version':
      return `New version of ${oneLine(f.title)}: v${f.versionNumber}`;
    case 'feedback':
      return `Feedback on ${oneLine(f.title)} v${f.versionNumber} from ${actor}`;
    case 'note':
      return `Timeline note on ${oneLine(f.title)} v${f.versionNumber} from ${actor}`;
    case 'approval':
      return `Approval decision on ${oneLine(f.title)} v${f.versionNumber} from ${actor}: ${oneLine(f.detail, 40)}`;
  }
}

/** The message without the footer: the same text stands alone or inside a digest. */
export function coreOf(f: EventFacts, audience: Audience): string {
  const link = itemLink(audience, f.mediaId);
  if (audience === 'client') {
    const what =
      f.kind === 'assigned'
        ? `The studio has shared "${oneLine(f.title)}"${f.versionNumber != null ? ` (version ${f.versionNumber})` : ''} with you for review.`
        : `A new version of "${oneLine(f.title)}" is ready for you: version ${f.versionNumber}.`;
    return [what, '', `Open it in your client portal: ${link}`].join('\n');
  }
  const where = f.via === 'link' ? 'through a share link' : 'in the client portal';
  const who = oneLine(f.actor);
  const on = `"${oneLine(f.title)}" (version ${f.versionNumber}) ${where}:`;
  const what =
    f.kind === 'feedback'
      ? `${who} left feedback on ${on}`
      : f.kind === 'note'
        ? `${who} left a timeline note on ${on}`
        : `${who} made an approval decision on ${on}`;
  // Quoted, so the comment's own lines ("Open it: <another link>") read as the person's words.
  return [what, '', quoted(f.detail), '', `Open it: ${link}`].join('\n');
}

export function footerOf(audience: Audience): string {
  return audience === 'client'
    ? 'You get these emails because notifications are on for your portal account. To change them, sign in to the portal and choose Notifications.'
    : 'You get these emails because you turned on notifications in the admin area. To change them, open the menu under your name and choose Notifications.';
}

export const withFooter = (core: string, audience: Audience) => `${core}\n\n--\n${footerOf(audience)}`;

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** One message listing every held notification of a person, oldest first. */
export function digestOf(audience: Audience, entries: { subject: string; body: string; createdAt: Date }[]) {
  const n = entries.length;
  const parts = entries.map((e) => `${when.format(e.createdAt)}: ${line(e.subject)}\n\n${e.body}`);
  return {
    subject: `Daily digest: ${n} update${n === 1 ? '' : 's'}`,
    body: withFooter([`Here is what happened since your last digest (${n} update${n === 1 ? '' : 's'}).`, ...parts].join('\n\n----------\n\n'), audience),
  };
}

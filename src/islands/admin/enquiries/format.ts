// Display helpers for the enquiries inbox (browser side).
import type { Enquiry } from '../../../shared/schemas/enquiry.ts';

export const fullName = (e: Pick<Enquiry, 'firstName' | 'lastName'>) => `${e.firstName} ${e.lastName}`.trim();

import { formatDateTime } from '../../../shared/format.ts';
export const formatReceived = formatDateTime;

const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];
/** "5 minutes ago", "yesterday"; a date once it is over a week old. */
export function formatAgo(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (value > -45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.trunc(value), unit); // 90 minutes is "1 hour ago"
    value /= size;
  }
  return formatDateTime(iso);
}

/** A mailto link that opens a reply with the subject filled in. */
export function replyHref(e: Enquiry): string {
  const subject = encodeURIComponent('Re: your enquiry');
  const body = encodeURIComponent(`Hi ${e.firstName},\n\nThank you for your enquiry.\n\n`);
  return `mailto:${encodeURIComponent(e.email).replace(/%40/g, '@')}?subject=${subject}&body=${body}`;
}

/** Search over the name, email and message, case-insensitively. */
export function matchesSearch(e: Enquiry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [fullName(e), e.email, e.message].some((field) => field.toLowerCase().includes(q));
}

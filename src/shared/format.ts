// The one set of display formats for admin and portal (issue 19 #17): dates in en-GB
// ("22 Nov 2026") whatever the browser's locale, one timestamp shape, one spelling of stages.
// UK time, so the server render and the browser agree on the day.
const TIME_ZONE = 'Europe/London';
const dateFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: TIME_ZONE });
const dateTimeFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: TIME_ZONE });

const parse = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** "22 Nov 2026"; 'Unknown' for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? 'Unknown' : dateFmt.format(d);
}

/** "22 Nov 2026, 14:05". */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const d = parse(value);
  return Number.isNaN(d.getTime()) ? 'Unknown' : dateTimeFmt.format(d);
}

/** A position in a video: 75 -> "01:15", 3725 -> "1:02:05". */
export function formatTimestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** 'post-production' -> 'Post-production'; no stage -> 'Not specified'. */
export function stageLabel(stage: string | null | undefined): string {
  if (!stage) return 'Not specified';
  return stage.charAt(0).toUpperCase() + stage.slice(1);
}

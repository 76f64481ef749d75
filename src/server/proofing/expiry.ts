// When a gallery closes (issue 42): at the end of its last day in the studio's time zone, so
// "until 3 March" means until midnight in the UK, whatever the viewer's or the server's zone.
import { formatDate } from '../../shared/format.ts';
import { GALLERY_EXPIRED } from '../../shared/schemas/proofing.ts';

export const STUDIO_TIME_ZONE = 'Europe/London';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: STUDIO_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The studio's wall clock minus UTC at instant `t`, in ms (0 or one hour in the UK). */
function zoneOffset(t: number): number {
  const p = Object.fromEntries(parts.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(t / 1000) * 1000;
}

/** The instant `date` (YYYY-MM-DD) ends in the studio's zone: the next day's midnight there. */
export function endOfStudioDay(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d + 1);
  // UK clocks change at 01:00 UTC, so local midnight is never skipped or doubled.
  return new Date(midnightUtc - zoneOffset(midnightUtc));
}

/** The instant the studio's clocks show `wall` (a UTC timestamp read as wall-clock time there). */
export function studioWallTime(wall: number): Date {
  const guess = wall - zoneOffset(wall);
  // Near a clock change the offset at the guess decides (an hour that never was reads as after it).
  return new Date(wall - zoneOffset(guess));
}

/** Today's date (YYYY-MM-DD) in the studio's zone. */
export function studioToday(now = Date.now()): string {
  const p = Object.fromEntries(parts.formatToParts(new Date(now)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}

export function isExpired(g: { expiresAt: Date | null }, now = Date.now()): boolean {
  return !!g.expiresAt && g.expiresAt.getTime() <= now;
}

/** What viewers of an expired gallery are told ("This gallery expired on 3 Mar 2026. …"). */
export function expiredMessage(g: { expiresOn: string | null }): string {
  return GALLERY_EXPIRED(formatDate(`${g.expiresOn}T12:00:00Z`));
}

// Which digest slot a moment falls in: the studio's day (UK time unless STUDIO_TIME_ZONE says
// otherwise) whose digest hour last passed (so before the hour it is still yesterday's), or,
// with an interval, the interval's number since the epoch. Pure, so the clock and time-zone
// rules can be tested without a server.
const formatters = new Map<string, Intl.DateTimeFormat>();

function dayAndHour(t: number, timeZone: string): { day: string; hour: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

export function slotAt(now: number, hour: number, intervalMs?: number, timeZone = 'Europe/London'): string {
  if (intervalMs) return `every-${intervalMs}:${Math.floor(now / intervalMs)}`;
  const today = dayAndHour(now, timeZone);
  if (today.hour >= hour) return `day:${today.day}`;
  // Before the hour: the slot that began at yesterday's hour (25 h back is still yesterday on
  // the day the clocks go back).
  return `day:${dayAndHour(now - 24 * 60 * 60 * 1000, timeZone).day}`;
}

// Which digest slot a moment falls in: the UK day whose digest hour last passed (so before
// the hour it is still yesterday's), or, with an interval, the interval's number since the
// epoch. Pure, so the clock and time-zone rules can be tested without a server.
const ukParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

function ukDayAndHour(t: number): { day: string; hour: number } {
  const p = Object.fromEntries(ukParts.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

export function slotAt(now: number, hour: number, intervalMs?: number): string {
  if (intervalMs) return `every-${intervalMs}:${Math.floor(now / intervalMs)}`;
  const today = ukDayAndHour(now);
  if (today.hour >= hour) return `day:${today.day}`;
  // Before the hour: the slot that began at yesterday's hour (25 h back is still yesterday on
  // the day the clocks go back).
  return `day:${ukDayAndHour(now - 24 * 60 * 60 * 1000).day}`;
}

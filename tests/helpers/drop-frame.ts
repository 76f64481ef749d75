/**
 * Drop-frame labels counted the slow way, one frame after another, as a deck's counter does:
 * each minute starts at ;02 (;04 at 59.94) except every tenth. The timecode arithmetic of the
 * markers (src/server/review/markers/timecode.ts) and of the player (smpteTimecode) must agree with it
 * at every frame of the minutes where the tens-of-minutes term matters (5-9 round up where 0-4
 * round down, 59 is the last before the hour).
 */
export function countedLabels(nominal: 30 | 60, upToMinutes: number): string[] {
  const skip = nominal === 60 ? 4 : 2;
  const labels: string[] = [];
  const pad = (v: number) => String(v).padStart(2, '0');
  for (let minute = 0; minute < upToMinutes; minute++) {
    for (let s = 0; s < 60; s++) {
      for (let f = 0; f < nominal; f++) {
        if (s === 0 && f < skip && minute % 10 !== 0) continue;
        labels.push(`${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:${pad(s)};${pad(f)}`);
      }
    }
  }
  return labels;
}

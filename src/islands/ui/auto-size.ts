// Auto quality (issue 39): one rule for every review and public player, whether it plays a
// file or streams. The size to show is the smallest one whose picture is at least as large as
// the picture on screen in device pixels: the element's box with the picture fitted into it
// (`object-fit: contain`), times devicePixelRatio. Smaller would be enlarged on screen, larger
// costs bandwidth and decoding for pixels nobody sees (a 4K proxy in an 846×400 player).
export interface Size {
  width: number;
  height: number;
}

/** Before the element is laid out (0 × 0), a 720p-sized player is assumed. */
const UNKNOWN_BOX: Size = { width: 1280, height: 720 };

/** Height on screen, in device pixels, of a picture shaped like `r` fitted into `box`. */
export function shownHeight(r: Size, box: Size, dpr: number): number {
  return Math.min(box.height, (box.width * r.height) / r.width) * dpr;
}

/**
 * The size Auto plays: the smallest covering the picture on screen (half a device pixel of
 * slack for fractional layouts), the largest when none does, the smallest under Save-Data.
 */
export function autoSize<R extends Size>(sizes: readonly R[], box: Size | null, dpr = 1, saveData = false): R | null {
  if (!sizes.length) return null;
  const bySize = [...sizes].sort((a, b) => a.width * a.height - b.width * b.height);
  if (saveData) return bySize[0]!;
  const b = box && box.width > 0 && box.height > 0 ? box : UNKNOWN_BOX;
  const ratio = Number.isFinite(dpr) && dpr > 0 ? dpr : 1;
  return bySize.find((r) => r.height >= shownHeight(r, b, ratio) - 0.5) ?? bySize[bySize.length - 1]!;
}

/**
 * The stream's level index Auto may climb to for the size `cap`: the largest level no larger
 * than it (hls.js's `autoLevelCapping` counts levels in its own order, lowest bit rate first),
 * else the smallest level; -1 (no cap) without a cap.
 */
export function capLevel(levels: readonly Size[], cap: Size | null): number {
  if (!cap || !levels.length) return -1;
  let best = -1;
  let smallest = 0;
  levels.forEach((l, i) => {
    const area = l.width * l.height;
    if (area < levels[smallest]!.width * levels[smallest]!.height) smallest = i;
    if (area <= cap.width * cap.height && (best < 0 || area > levels[best]!.width * levels[best]!.height)) best = i;
  });
  return best >= 0 ? best : smallest;
}

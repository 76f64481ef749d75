// One image decoded at a time in this process. Decoding an upload can take a few hundred MB
// and both cores for a second or more (up to IMAGE_MAX_PIXELS), so uploads arriving together
// wait their turn instead of multiplying the memory of the web process.
let last: Promise<unknown> = Promise.resolve();

/** Runs `work` after every image work queued before it has settled. */
export function inImageTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = last.then(work, work);
  last = turn.catch(() => {});
  return turn;
}

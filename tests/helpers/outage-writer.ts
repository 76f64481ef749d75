// A writer that keeps sending writes through a database outage or stall (database-outage and
// sqld-stall tests): it tallies what was acknowledged, what answered the clear 503, and anything
// else (which must stay empty).
export interface Tally {
  acked: string[];
  unavailable: number;
  /** Anything but success or a proper 503: must stay empty. */
  wrong: string[];
}

export const tally = (): Tally => ({ acked: [], unavailable: 0, wrong: [] });

/** One writer: sends writes (each with a new marker) until told to stop, pausing after a 503. */
export async function writer(send: (marker: string) => Promise<{ status: number; body: any }>, prefix: string, tally: Tally, stop: () => boolean) {
  for (let i = 0; !stop(); i++) {
    const marker = `${prefix}-${i}`;
    let r: { status: number; body: any };
    try {
      r = await send(marker);
    } catch (e) {
      tally.wrong.push(`${marker}: ${e}`);
      continue;
    }
    if (r.status === 200 || r.status === 201) tally.acked.push(marker);
    else if (r.status === 503 && /^The database is (not reachable|busy) right now/.test(r.body?.message ?? '')) {
      tally.unavailable++;
      await new Promise((res) => setTimeout(res, 250));
    } else tally.wrong.push(`${marker}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

// Run by tests/api/two-process-races.test.ts, two at once: `node tests/helpers/claimer.ts OWNER`
// with the app's DATABASE_URL. Loads the app's real job queue, says CLAIMER_READY, waits for a
// line on stdin (so both start claiming together), then claims until no job is left and
// prints the ids it got: CLAIMED [..]. `node tests/helpers/claimer.ts OWNER through-outages`
// (tests/api/sqld-stall.test.ts) claims again after a claim the database could not answer, as
// the worker does, stops at a second line on stdin, and also prints when each claim was
// acknowledged: TIMES [..].
import { createInterface } from 'node:readline';

const owner = process.argv[2]!;
// A real worker renews its lease while it converts; these claimers never do, so a lease that
// ran out while the queue was still being claimed (minutes on a busy sqld) would let another
// claimer take the same job again, which is not the race under test.
process.env.JOB_LEASE_SECONDS ??= '3600';
const { claim } = await import('../../src/server/jobs/queue.ts');
const { databaseTrouble } = await import('../../src/db/unavailable.ts');
const throughOutages = process.argv[3] === 'through-outages';
// One claim of a kind no job has, before saying ready: the connection, the transaction's
// statements and their code are warm in both claimers, so neither spends its first
// milliseconds there while the other takes the whole queue (seen: 0 and 200 on a fast machine).
await claim(owner, ['warm-up: no such kind']);
console.log('CLAIMER_READY');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
// A second line (through-outages): stop after the claim under way.
let stopped = false;
lines.once('line', () => (stopped = true));
const started = Date.now();
const ids: number[] = [];
const times: number[] = [];
let refused = 0;
async function next() {
  for (;;) {
    try {
      return await claim(owner);
    } catch (e) {
      if (!throughOutages || !databaseTrouble(e)) throw e;
      refused++;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
for (let job = await next(); job; job = stopped ? null : await next()) {
  ids.push(job.id);
  times.push(Date.now());
}
if (throughOutages) console.log(`TIMES ${JSON.stringify(times)} REFUSED ${refused}`);
// When it began and ended claiming: the test checks the claimers' runs overlapped.
console.log(`SPAN ${started} ${Date.now()}`);
console.log(`CLAIMED ${JSON.stringify(ids)}`);
process.exit(0);

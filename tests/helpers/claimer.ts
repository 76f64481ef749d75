// Run by tests/api/two-process-races.test.ts, two at once: `node tests/helpers/claimer.ts OWNER`
// with the app's DATABASE_URL. Loads the app's real job queue, says CLAIMER_READY, waits for a
// line on stdin (so both start claiming together), then claims until no job is left and
// prints the ids it got: CLAIMED [..].
import { createInterface } from 'node:readline';

const owner = process.argv[2]!;
// A real worker renews its lease while it converts; these claimers never do, so a lease that
// ran out while the queue was still being claimed (minutes on a busy sqld) would let another
// claimer take the same job again, which is not the race under test.
process.env.JOB_LEASE_SECONDS ??= '3600';
const { claim } = await import('../../src/server/jobs/queue.ts');
// One claim of a kind no job has, before saying ready: the connection, the transaction's
// statements and their code are warm in both claimers, so neither spends its first
// milliseconds there while the other takes the whole queue (seen: 0 and 200 on a fast machine).
await claim(owner, ['warm-up: no such kind']);
console.log('CLAIMER_READY');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const started = Date.now();
const ids: number[] = [];
for (let job = await claim(owner); job; job = await claim(owner)) ids.push(job.id);
// When it began and ended claiming: the test checks the claimers' runs overlapped.
console.log(`SPAN ${started} ${Date.now()}`);
console.log(`CLAIMED ${JSON.stringify(ids)}`);
process.exit(0);

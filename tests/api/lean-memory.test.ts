// A Studio process keeps to the small heap settings unless LEAN_MEMORY=off (issue 43,
// scripts/lean-process.mjs): V8's flags and glibc's arena cap, set by starting itself again with
// them. Every other test server runs the shipped default without looking; this file looks at
// the running process, with the default and with LEAN_MEMORY=off.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

let lean: TestServer;
let roomy: TestServer;
beforeAll(async () => {
  // Empty reads as unset, as a production unit leaves it.
  [lean, roomy] = await Promise.all([startServer({ env: { LEAN_MEMORY: '' } }), startServer({ env: { LEAN_MEMORY: 'off' } })]);
});
afterAll(async () => {
  await Promise.all([lean?.stop(), roomy?.stop()]);
});

const argv = (s: TestServer) => fs.readFileSync(`/proc/${s.proc.pid}/cmdline`, 'utf8').split('\0');
const environ = (s: TestServer) => fs.readFileSync(`/proc/${s.proc.pid}/environ`, 'utf8').split('\0');

test.each([
  { when: 'by default', server: () => lean, small: true },
  { when: 'with LEAN_MEMORY=off', server: () => roomy, small: false },
])('$when, the small heap settings are applied to the serving process: $small', async ({ server, small }) => {
  const s = server();
  // The same process answers (the pid it was started as), so the settings are those it serves with.
  expect((await fetch(`${s.url}/api/health`)).status).toBeLessThan(500);
  const args = argv(s);
  expect(args.includes('--max-semi-space-size=1')).toBe(small);
  expect(args.includes('--optimize-for-size')).toBe(small);
  expect(environ(s).includes('MALLOC_ARENA_MAX=2')).toBe(small);
});

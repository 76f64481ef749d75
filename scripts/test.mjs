#!/usr/bin/env node
// `npm test`: type check, build, API tests (vitest), browser tests (Playwright), in that order,
// stopping at the first that fails, as `a && b && c && d` would; then prints where the time went
// (scripts/test-times.mjs), failed or not. Each phase's wall time and how busy the machine's CPUs
// were meanwhile go into .test-times/phases.jsonl; the test files write their own lines there
// (tests/helpers/timing.ts, through STUDIO_TEST_TIMES). docs/testing.md explains the table.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTicks, printTimes, TIMES_DIR } from './test-times.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const timesDir = path.join(root, TIMES_DIR);

// What .ci/run recorded before (its install phases) stays; the rest is this run's.
fs.mkdirSync(timesDir, { recursive: true });
for (const name of ['phases.jsonl', 'parts.jsonl']) fs.rmSync(path.join(timesDir, name), { force: true });

const phases = [
  ['check', 'npm', ['run', '--silent', 'check']],
  ['build', 'npm', ['run', '--silent', 'build']],
  ['vitest', 'npm', ['run', '--silent', 'test:unit']],
  ['playwright', 'npm', ['run', '--silent', 'test:e2e']],
];

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, STUDIO_TEST_TIMES: timesDir } });
    // Ctrl-C reaches the child through the terminal; only this process must not die first.
    const ignore = () => undefined;
    process.on('SIGINT', ignore);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

let status = 0;
for (const [name, cmd, args] of phases) {
  const started = Date.now();
  const before = cpuTicks();
  status = await run(cmd, args);
  const after = cpuTicks();
  const line = { phase: name, startedAt: new Date(started).toISOString(), wallMs: Date.now() - started, busy: (after.busy - before.busy) / Math.max(1, after.total - before.total), status };
  fs.appendFileSync(path.join(timesDir, 'phases.jsonl'), JSON.stringify(line) + '\n');
  if (status !== 0) break;
}
printTimes(timesDir);
process.exit(status);

// Where a test file's time goes (issue 52, docs/testing.md). With STUDIO_TEST_TIMES naming a
// folder (scripts/test.mjs sets it), each test file appends one line to parts.jsonl there: its
// wall time from its first hook to its last, the app servers it started and how long they took
// to answer, the time spent polling in `until`, and CPU: the test process's own, and that of
// the processes it started and reaped (servers and their ffmpeg runs, fixtures made with
// ffmpeg, nginx, sqld). Wall time that is neither CPU nor a server start is waiting. Without the
// variable every function here does nothing. Only node: modules, so unit tests pay nothing.
import fs from 'node:fs';
import path from 'node:path';

const DIR = process.env.STUDIO_TEST_TIMES || '';
// Linux reports CPU times in clock ticks; 100 a second on every Linux this runs on.
const TICK_MS = 10;

interface FileTimes {
  project: string;
  file: string;
  startedAt: number;
  selfCpu: NodeJS.CpuUsage;
  childTicks: number;
  serverStarts: number;
  serverStartMs: number;
  waitMs: number;
  waits: number;
}

const KEY = Symbol.for('studio.tests.timing');
const state: { current: FileTimes | null } = ((globalThis as Record<symbol, { current: FileTimes | null } | undefined>)[KEY] ??= { current: null });

/** utime + stime of the children this process has waited for (fields 16 and 17 of /proc/self/stat). */
function reapedChildTicks(): number {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 3 of the full line is fields[0] here; cutime and cstime are 16 and 17.
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
}

/** Starts counting for a test file (project: the vitest project, or "e2e"). */
export function beginTestFile(project: string, file: string): void {
  if (!DIR) return;
  if (state.current) endTestFile();
  state.current = {
    project,
    file: path.relative(process.cwd(), file),
    startedAt: performance.now(),
    selfCpu: process.cpuUsage(),
    childTicks: reapedChildTicks(),
    serverStarts: 0,
    serverStartMs: 0,
    waitMs: 0,
    waits: 0,
  };
}

/** Writes the current file's line and stops counting. */
export function endTestFile(): void {
  const t = state.current;
  if (!DIR || !t) return;
  state.current = null;
  const cpu = process.cpuUsage(t.selfCpu);
  const line = {
    project: t.project,
    file: t.file,
    wallMs: Math.round(performance.now() - t.startedAt),
    selfCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    childCpuMs: (reapedChildTicks() - t.childTicks) * TICK_MS,
    serverStarts: t.serverStarts,
    serverStartMs: Math.round(t.serverStartMs),
    waitMs: Math.round(t.waitMs),
    waits: t.waits,
  };
  fs.mkdirSync(DIR, { recursive: true });
  // One short line per write with O_APPEND: lines from parallel workers do not interleave.
  fs.appendFileSync(path.join(DIR, 'parts.jsonl'), JSON.stringify(line) + '\n');
}

/** An app server took `ms` from spawn to answering. */
export function recordServerStart(ms: number): void {
  if (!state.current) return;
  state.current.serverStarts += 1;
  state.current.serverStartMs += ms;
}

/** `until` polled for `ms`. */
export function recordWait(ms: number): void {
  if (!state.current) return;
  state.current.waits += 1;
  state.current.waitMs += ms;
}

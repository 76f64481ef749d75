// The app processes tests start (scripts/start.mjs servers, scripts/worker.mjs workers) and nginx,
// and why none outlives the test process or the test file that started it:
// - every one is in one registry from its spawn until its exit;
// - app processes are spawned with tests/helpers/leash.mjs preloaded and their stdin a pipe this
//   process holds: when this process ends in any way, SIGKILL included, they end too;
// - when this process exits or is told to (SIGINT, SIGTERM, SIGHUP), whatever is still running
//   is killed first;
// - after each vitest file, tests/setup/processes.ts stops whatever that file left running (a
//   test that threw before its own stop); Playwright's fixtures stop theirs in their teardown.
// Only node: modules here, so the per-file set-up costs unit tests nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LEASH = pathToFileURL(path.join(import.meta.dirname, 'leash.mjs')).href;

interface Registry {
  running: Map<ChildProcess, NodeJS.Signals>;
}

// One registry per OS process, even if a test runner evaluates this module more than once.
const KEY = Symbol.for('studio.tests.processes');
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[KEY] ??= installRegistry());

function installRegistry(): Registry {
  const r: Registry = { running: new Map() };
  const killAll = () => {
    for (const p of r.running.keys()) p.kill('SIGKILL');
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      // Keep the signal's usual effect unless someone else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  return r;
}

/** Puts a process in the registry until it exits; `stopSignal` is how `stopAll` asks it to end. */
export function track(proc: ChildProcess, stopSignal: NodeJS.Signals = 'SIGTERM'): ChildProcess {
  if (proc.exitCode !== null || proc.signalCode !== null) return proc;
  registry.running.set(proc, stopSignal);
  proc.once('exit', () => registry.running.delete(proc));
  return proc;
}

/** `node <script> ...args` from the repository root, on a leash (see above), output piped. */
export function spawnApp(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const proc = spawn(process.execPath, ['--import', LEASH, path.join(ROOT, script), ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  // Writing to the pipe is never done; an error on it (the process gone) is not this one's.
  proc.stdin!.on('error', () => undefined);
  return track(proc);
}

/** Sends `signal`, and SIGKILL 5 s later if the process is still there; resolves once it has exited. */
export function stopProcess(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(() => proc.kill('SIGKILL'), 5000);
    proc.once('exit', () => {
      clearTimeout(fallback);
      resolve();
    });
    proc.kill(signal);
  });
}

/** Stops every process still in the registry; answers how many there were. */
export async function stopAll(): Promise<number> {
  const left = [...registry.running];
  await Promise.all(left.map(([p, signal]) => stopProcess(p, signal)));
  return left.length;
}

/** The processes still running, for checks. */
export function runningPids(): number[] {
  return [...registry.running.keys()].map((p) => p.pid!).filter(Boolean);
}

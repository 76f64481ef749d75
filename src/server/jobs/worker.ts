// The video worker: WORKER_JOBS jobs (each one ffmpeg of FFMPEG_THREADS threads) at a time, one
// unless the machine is large (config.ts). Runs inside `npm start` unless WORKER=off, or alone
// via `npm run worker`; any number of workers may share a database.
// Without ffmpeg it says so once and keeps checking, so queued videos convert as soon as
// ffmpeg is installed.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { updateVersionColumns } from '../media/version-columns.ts';
import { config } from '../config.ts';
import { hasTool } from '../media/ffmpeg.ts';
import { browserPlayable, probeFile } from '../media/probe.ts';
import { storage } from '../storage/index.ts';
import { FfmpegError } from './ffmpeg-run.ts';
import { backfill, claim, complete, fail, heartbeat, jobOutcome, REPAIR, UPGRADE, WATERMARK, type ClaimedJob } from './queue.ts';
import { makeWatermark } from './watermark.ts';
import { beat, forget, HEARTBEAT_MS } from './heartbeat.ts';
import { ensureClientGates } from '../sharing/client-gate.ts';
import { HttpError } from '../http.ts';
import { assertDiskSpaceFor } from '../storage/disk-space.ts';
import { expectedOutputBytes, JOB_SCRATCH, LADDER, LADDER_BEFORE_FRAME_CHECK, transcode } from './transcode.ts';
import { frameTimesOff } from './frame-check.ts';
import type { VideoProbe } from '../media/probe.ts';
import type { StoredRendition } from '../../db/schema.ts';
import { backfillStills, makeStills, markStillsFailed, STILLS } from '../proofing/stills.ts';
import { databaseTrouble } from '../../db/unavailable.ts';
import { conversionFinished, conversionsCounted } from '../metrics/signals.ts';
import { BURN, makeBurn, markBurnFailed } from '../captions/burn.ts';
import { extractEmbedded } from '../captions/embedded.ts';
import { withoutPaths } from './failure-text.ts';

const FFMPEG_RECHECK_MS = 15_000;

export interface Worker {
  stop: () => Promise<void>;
  /**
   * Settles once the library existing at start is queued (backfill). A process says it is ready
   * only after this: rows written by someone else just after "ready" are then never swept up by
   * a start-up backfill that happened to run late.
   */
  backfilled: Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

const UNREACHABLE_RETRY_MS = 1000;
const never = new AbortController().signal;

/**
 * Records a job's outcome, waiting for the database while it cannot be reached (a libSQL
 * server restarting, issue 44): the conversion is done and is not thrown away. Should the
 * lease lapse meanwhile and another worker take the job, the record answers false.
 */
async function record<T>(what: string, fn: () => Promise<T>, log: (line: string) => void): Promise<T> {
  for (let warned = false; ; warned = true) {
    try {
      return await fn();
    } catch (e) {
      if (!databaseTrouble(e)) throw e;
      if (!warned) log(`database unreachable: ${what} is recorded once it is back`);
      await sleep(UNREACHABLE_RETRY_MS, never);
    }
  }
}

/** Renews the job's lease (and saves progress) every second until the answer is called; a lost job aborts `cancel`. */
function keepLease(job: ClaimedJob, owner: string, cancel: AbortController, progress: () => number) {
  let beating = Promise.resolve();
  const beat = setInterval(() => {
    beating = beating
      .then(() => heartbeat(job, owner, progress()))
      .then((alive) => {
        if (!alive) cancel.abort();
      })
      .catch(() => {});
  }, Math.min(1000, (config.JOB_LEASE_SECONDS * 1000) / 3));
  return async () => {
    clearInterval(beat);
    await beating;
  };
}

/** A share link's watermarked preview (issue 17). */
async function runWatermarkJob(job: ClaimedJob, owner: string, log: (line: string) => void): Promise<void> {
  const cancel = new AbortController();
  let progress = 0;
  const stopBeat = keepLease(job, owner, cancel, () => progress);
  let storageKey: string | null = null;
  try {
    const result = await makeWatermark(job.versionId, job.linkId!, (f) => (progress = Math.min(99, Math.floor(f * 100))), cancel.signal, (key) => (storageKey = key), threadsOf(job));
    await stopBeat();
    if (cancel.signal.aborted || !(await record(`job ${job.id}`, () => complete(job, owner, null), log))) return;
    if (result) log(`video ${job.mediaId}: watermarked preview for share link ${job.linkId} ready`);
  } catch (e) {
    await stopBeat();
    if (e instanceof FfmpegError && e.cancelled) return;
    const { message, tail, threads } = failureOf(e, job);
    log(`video ${job.mediaId}: watermark for share link ${job.linkId}, attempt ${job.attempts} failed: ${message}${tail ? `\n${tail}` : ''}`);
    await record(`job ${job.id}`, () => fail(job, owner, message, tail, true, threads), log).catch(() => {});
  } finally {
    if (storageKey) await storage.releaseLocal(storageKey).catch(() => {});
  }
}

/**
 * A repair's check (issue 39): the version's renditions, re-marked with today's ladder, when all
 * of them are of the ladder before the frame check and keep the original's frame times; else
 * null (they are made again).
 */
async function alreadyExact(storageKey: string, renditions: StoredRendition[], probe: VideoProbe, log: (line: string) => void): Promise<StoredRendition[] | null> {
  if (!renditions.length || renditions.some((r) => (r.ladder ?? 0) < LADDER_BEFORE_FRAME_CHECK)) return null;
  for (const r of renditions) {
    const off = await frameTimesOff(await storage.localPath(storageKey, r.variant), probe.fps);
    if (off) {
      log(`${storageKey}/${r.variant}: ${off}`);
      return null;
    }
  }
  return renditions.map((r) => ({ ...r, ladder: LADDER }));
}

/** The threads a job's ffmpeg may use. */
const threadsOf = (job: ClaimedJob) => job.ffmpegThreads ?? config.FFMPEG_THREADS;

/**
 * A failed attempt's message and ffmpeg's last lines of stderr. An ffmpeg killed by the system
 * (out of memory: the worker itself lives on) gets the next attempt with half the threads.
 */
function failureOf(e: unknown, job: ClaimedJob): { message: string; tail: string; threads?: number } {
  const message = e instanceof Error ? e.message : String(e);
  const tail = e instanceof FfmpegError ? e.stderrTail : '';
  if (!(e instanceof FfmpegError && e.killedBySystem)) return { message, tail };
  const now = threadsOf(job);
  const threads = Math.max(1, Math.floor(now / 2));
  if (threads === now || job.attempts >= job.maxAttempts) return { message, tail };
  return { message: `${message}; the next attempt uses ${threads} thread${threads === 1 ? '' : 's'}`, tail, threads };
}

/** A gallery image's display sizes and EXIF facts (issue 42): sharp and exiftool, no ffmpeg. */
async function runStillsJob(job: ClaimedJob, owner: string, log: (line: string) => void): Promise<void> {
  const cancel = new AbortController();
  const stopBeat = keepLease(job, owner, cancel, () => 0);
  try {
    await makeStills(job.versionId);
    await stopBeat();
    if (!cancel.signal.aborted) await complete(job, owner, null);
  } catch (e) {
    await stopBeat();
    const { message } = failureOf(e, job);
    log(`image ${job.mediaId}: gallery sizes, attempt ${job.attempts} failed: ${message}`);
    await fail(job, owner, message, '').catch(() => {});
    if (job.attempts >= job.maxAttempts) await markStillsFailed(job.versionId).catch(() => {});
  }
}

/** An open-captions rendition (issue 54): captions burnt into the picture. */
async function runBurnJob(job: ClaimedJob, owner: string, log: (line: string) => void): Promise<void> {
  const cancel = new AbortController();
  let progress = 0;
  const stopBeat = keepLease(job, owner, cancel, () => progress);
  let storageKey: string | null = null;
  const burnId = job.captionBurnId!;
  try {
    await makeBurn(burnId, (f) => (progress = Math.min(99, Math.floor(f * 100))), cancel.signal, (key) => (storageKey = key), threadsOf(job));
    await stopBeat();
    if (cancel.signal.aborted || !(await record(`job ${job.id}`, () => complete(job, owner, null), log))) return;
    log(`video ${job.mediaId}: open captions ${burnId} ready`);
  } catch (e) {
    await stopBeat();
    if (e instanceof FfmpegError && e.cancelled) return;
    const { message, tail, threads } = failureOf(e, job);
    log(`video ${job.mediaId}: open captions ${burnId}, attempt ${job.attempts} failed: ${message}${tail ? `\n${tail}` : ''}`);
    await record(`job ${job.id}`, () => fail(job, owner, message, tail, true, threads), log).catch(() => {});
    if (job.attempts >= job.maxAttempts) await markBurnFailed(burnId, withoutPaths(message)).catch(() => {});
  } finally {
    if (storageKey) await storage.releaseLocal(storageKey).catch(() => {});
  }
}

async function runJob(job: ClaimedJob, owner: string, log: (line: string) => void): Promise<void> {
  if (job.kind === WATERMARK) return runWatermarkJob(job, owner, log);
  if (job.kind === BURN) return runBurnJob(job, owner, log);
  if (job.kind === STILLS) return runStillsJob(job, owner, log);
  const [row] = await db.select().from(mediaVersions).where(eq(mediaVersions.id, job.versionId)).limit(1);
  if (!row) return; // deleted meanwhile; its job went with it (cascade)
  const originalVariant = row.url.split('/').pop()!;
  const cancel = new AbortController();
  let progress = 0;
  // The lease is renewed (and progress saved) every second; a lost job stops ffmpeg at once.
  const stopBeat = keepLease(job, owner, cancel, () => progress);
  try {
    // A worker killed mid-job leaves its scratch outputs behind: clear them before starting again.
    await storage.clearScratch(row.storageKey, JOB_SCRATCH);
    const probe = await probeFile({ path: await storage.localPath(row.storageKey, originalVariant), mimeType: row.mimeType });
    if (!probe) {
      await fail(job, owner, 'The video could not be read: it has no playable video stream.', '', false);
      return;
    }
    // Probes from before frame rates were recorded (probe.ts) are read again: a variable-rate
    // clip is now counted at a standard rate, which the notes and the frame step must agree on.
    if (!row.probe || !('frameRate' in row.probe)) {
      await updateVersionColumns(db, row.id, {
        probe: probe as unknown as Record<string, unknown>,
        originalPlayable: browserPlayable(probe, row.mimeType),
        width: probe.width,
        height: probe.height,
        durationSeconds: probe.durationSeconds != null ? Math.round(probe.durationSeconds) : null,
      });
    }
    if (job.kind === REPAIR) {
      const exact = await alreadyExact(row.storageKey, row.renditions ?? [], probe, log);
      if (exact) {
        await stopBeat();
        if (await complete(job, owner, { path: 'checked', renditions: exact, spriteUrl: row.spriteUrl, version: job.id })) log(`video ${job.mediaId}: checked, frame times exact`);
        return;
      }
      log(`video ${job.mediaId}: making its proxies again (frame times)`);
    }
    // Refused up front rather than failing halfway with a full disk; Retry runs it again.
    const full = job.kind === UPGRADE || job.kind === REPAIR;
    const expected = expectedOutputBytes(probe, row.fileSize, full);
    try {
      await assertDiskSpaceFor(expected);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      const mb = Math.ceil(expected / (1024 * 1024)).toLocaleString('en-GB');
      log(`video ${job.mediaId}: not enough disk space to convert (needs about ${mb} MB plus MIN_FREE_BYTES)`);
      await fail(job, owner, `Not enough disk space to convert this video (it needs about ${mb} MB free). Free some space, then press Retry.`, '', false);
      return;
    }
    const result = await transcode(row.storageKey, { variant: originalVariant, mimeType: row.mimeType }, probe, job.id, (f) => (progress = Math.min(99, Math.floor(f * 100))), cancel.signal, full, threadsOf(job));
    // A first conversion reads the file's own subtitle streams into tracks (issue 54), before the
    // version turns ready, so its players offer them from the start; never failing the job.
    if (!full) {
      const original = { path: await storage.localPath(row.storageKey, originalVariant), mimeType: row.mimeType };
      const version = { ...row, probe: probe as unknown as Record<string, unknown> };
      await extractEmbedded(version, original, log).catch((e) => log(`video ${job.mediaId}: subtitle streams not read: ${e instanceof Error ? e.message : e}`));
    }
    await stopBeat();
    if (cancel.signal.aborted || !(await record(`job ${job.id}`, () => complete(job, owner, { ...result, version: job.id }), log))) {
      log(`video ${job.mediaId}: job ${job.id} was taken away while converting; result dropped`);
      return;
    }
    log(`video ${job.mediaId}: ready (${result.path}, ${result.renditions.map((r) => r.label).join(' + ')})`);
  } catch (e) {
    await stopBeat();
    if (e instanceof FfmpegError && e.cancelled) {
      log(`video ${job.mediaId}: conversion cancelled (item deleted or reprocessed)`);
      return;
    }
    const { message, tail, threads } = failureOf(e, job);
    // The whole text, paths included, is for the operator; staff see it without (queue.fail).
    log(`video ${job.mediaId}: attempt ${job.attempts} failed: ${message}${tail ? `\n${tail}` : ''}`);
    await record(`job ${job.id}`, () => fail(job, owner, message, tail, true, threads), log).catch(() => {});
  } finally {
    await stopBeat();
    // With S3 the original was downloaded for ffmpeg: the copy goes, the bucket keeps it.
    await storage.releaseLocal(row.storageKey).catch(() => {});
  }
}

export function startWorker(log: (line: string) => void = (l) => console.log(`[worker] ${l}`)): Worker {
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const stopping = new AbortController();
  // Alive and whether ffmpeg was found, for GET /api/health; beats go on while ffmpeg runs.
  let ffmpegFound: boolean | null = null;
  const sayAlive = () => beat(owner, ffmpegFound ?? false).catch(() => {});
  const aliveTimer = setInterval(sayAlive, HEARTBEAT_MS);
  aliveTimer.unref();
  // Every change is told at once rather than at the next beat.
  const lookForTools = async () => {
    const found = (await hasTool('ffmpeg', true)) && (await hasTool('ffprobe', true));
    if (found !== ffmpegFound) {
      ffmpegFound = found;
      await sayAlive();
    }
    return found;
  };
  let warned = false;
  let unreachable = false;
  let lastCheck = 0;
  let ready = false;
  /** One lane: claims and runs one job at a time; WORKER_JOBS lanes share the worker. */
  const lane = async () => {
    while (!stopping.signal.aborted) {
      if (!ready || Date.now() - lastCheck > FFMPEG_RECHECK_MS) {
        ready = await lookForTools();
        lastCheck = Date.now();
      }
      if (!ready && !warned) log('ffmpeg/ffprobe not found: uploaded videos will wait (queued) and convert once ffmpeg is installed.');
      if (ready && warned) log('ffmpeg found: converting queued videos.');
      warned = !ready;
      let job: ClaimedJob | null = null;
      try {
        // Gallery stills need no ffmpeg: they go on either way.
        job = await claim(owner, ready ? undefined : [STILLS]);
        if (unreachable) log('database reachable again: claiming jobs');
        unreachable = false;
      } catch (e) {
        // An outage is said once, not at every poll.
        const trouble = databaseTrouble(e);
        if (!trouble) log(`claim failed: ${e instanceof Error ? e.message : e}`);
        else if (!unreachable) log('database unreachable: claiming again once it is back');
        unreachable ||= trouble !== null;
      }
      if (!job) {
        await sleep(ready ? config.JOB_POLL_MS : Math.min(FFMPEG_RECHECK_MS, config.JOB_POLL_MS * 5), stopping.signal);
        continue;
      }
      const started = performance.now();
      await runJob(job, owner, log);
      if (conversionsCounted()) conversionFinished(job.kind, await jobOutcome(job.id), (performance.now() - started) / 1000);
    }
  };
  let backfillDone!: () => void;
  const backfilled = new Promise<void>((resolve) => (backfillDone = resolve));
  const loop = (async () => {
    // Health hears of this worker before the backfill's transaction.
    await lookForTools();
    try {
      const queued = await backfill();
      if (queued) log(`queued ${queued} existing video(s) for conversion`);
      const stills = await backfillStills();
      if (stills) log(`queued ${stills} gallery image(s) for their sizes`);
      const gated = await ensureClientGates();
      if (gated) log(`queued the approval-gate previews of ${gated} client(s)`);
    } catch (e) {
      log(`backfill failed: ${e instanceof Error ? e.message : e}`);
    }
    backfillDone();
    await Promise.all(Array.from({ length: config.WORKER_JOBS }, lane));
  })();
  log(`started (${owner}; ${config.WORKER_JOBS} job${config.WORKER_JOBS === 1 ? '' : 's'} at a time, ffmpeg threads ${config.FFMPEG_THREADS})`);
  return {
    backfilled,
    async stop() {
      stopping.abort();
      clearInterval(aliveTimer);
      await loop;
      await forget(owner).catch(() => {});
    },
  };
}

// The durable job queue: rows in `jobs`, claimed atomically inside BEGIN IMMEDIATE by one
// UPDATE ... RETURNING, so two workers (in one process or many, on one database) never take
// the same job. A running job carries a lease its worker renews; an expired lease means the
// worker died and the job is taken again, up to max_attempts, with exponential backoff.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { jobs, media, mediaVersions, type StoredRendition } from '../../db/schema.ts';
import { updateVersionColumns } from '../media/version-columns.ts';
import { config } from '../config.ts';
import { bumpSiteVersion } from '../site-version.ts';
import { enqueueWatermarksOfVersion, WATERMARK } from '../sharing/watermark-jobs.ts';
import { withoutPaths } from './failure-text.ts';
import { recordEvent } from '../notifications/index.ts';
import { LADDER } from './transcode.ts';
import type { RepairProgress } from '../../shared/library-repair.ts';

type Executor = Pick<typeof db, 'update' | 'select' | 'insert' | 'delete'>;

export const TRANSCODE = 'transcode';
/**
 * A ready video converted again because the ladder grew (LADDER in transcode.ts): its status
 * and current files stay as they are, so it keeps playing, until the new set replaces them.
 */
export const UPGRADE = 'upgrade';
/**
 * A ready video made by an older ladder (LADDER in transcode.ts), checked on upgrade: files that
 * already keep the original's frame times are only re-marked; the others are made again, and
 * replace the old ones only once checked (issue 39). Playing carries on meanwhile.
 */
export const REPAIR = 'repair';
/** A share link's watermarked preview of one version (issue 17); touches no version columns. */
export { WATERMARK };

export interface ClaimedJob {
  id: number;
  mediaId: number;
  /** Each version of an item is converted on its own (its files live in its own folder). */
  versionId: number;
  kind: string;
  /** Watermark jobs: the link whose preview is made. */
  linkId: number | null;
  /** Open-captions jobs (issue 54): the caption_burns row. */
  captionBurnId: number | null;
  attempts: number;
  maxAttempts: number;
  /** Threads this attempt's ffmpeg may use; null: FFMPEG_THREADS (lowered after an out-of-memory kill). */
  ffmpegThreads: number | null;
}

/**
 * Queues (again) the conversion of one version of a video; any earlier job of that version is
 * dropped (a running one is then stopped by its worker). Other versions' jobs carry on.
 */
export async function enqueueProcessing(tx: Executor, mediaId: number, versionId: number): Promise<void> {
  await tx.delete(jobs).where(and(eq(jobs.versionId, versionId), inArray(jobs.kind, [TRANSCODE, UPGRADE, REPAIR])));
  await tx.insert(jobs).values({ kind: TRANSCODE, mediaId, versionId });
  await updateVersionColumns(tx, versionId, { processingStatus: 'queued', processingProgress: 0, processingError: null });
}

/** The id of an item's current version (the one whose folder the media row names). */
export async function currentVersionId(tx: Pick<typeof db, 'select'>, mediaId: number): Promise<number | null> {
  const [row] = await tx
    .select({ id: mediaVersions.id })
    .from(mediaVersions)
    .innerJoin(media, eq(media.storageKey, mediaVersions.storageKey))
    .where(eq(media.id, mediaId))
    .limit(1);
  return row?.id ?? null;
}

/** POST /api/media/{id}/reprocess: the current version. */
export async function reprocess(mediaId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const versionId = await currentVersionId(tx, mediaId);
    if (versionId != null) await enqueueProcessing(tx, mediaId, versionId);
  });
}

/**
 * Queues every video that has no renditions and no live job (items from before the pipeline,
 * and items whose job was lost), and a repair of every ready video made by an older ladder (one
 * whose repair failed for good waits for Retry). Runs when a worker starts.
 *
 * Repairs go newest version first and after any other work: their run_after is now, not 0, so
 * an upload made while a library is being repaired is converted first (claim orders by
 * run_after, then id).
 */
export async function backfill(): Promise<number> {
  return db.transaction(async (tx) => {
    const live = sql`SELECT 1 FROM jobs j WHERE j.version_id = v.id AND j.kind IN (${TRANSCODE}, ${UPGRADE}, ${REPAIR}) AND j.status IN ('queued', 'running')`;
    const rows = await tx.all<{ id: number; media_id: number }>(sql`
      SELECT v.id, v.media_id FROM media_versions v JOIN media m ON m.id = v.media_id
      WHERE m.type = 'video'
        AND (v.processing_status IS NULL OR v.processing_status IN ('queued', 'processing'))
        AND NOT EXISTS (${live})`);
    for (const r of rows) await enqueueProcessing(tx, r.media_id, r.id);
    const old = await tx.all<{ id: number; media_id: number }>(sql`
      SELECT v.id, v.media_id FROM media_versions v JOIN media m ON m.id = v.media_id
      WHERE m.type = 'video' AND v.processing_status = 'ready'
        AND NOT EXISTS (SELECT 1 FROM json_each(coalesce(v.renditions, '[]')) r WHERE coalesce(json_extract(r.value, '$.ladder'), 0) >= ${LADDER})
        AND NOT EXISTS (${live})
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.version_id = v.id AND j.kind IN (${UPGRADE}, ${REPAIR}) AND j.status = 'failed')
      ORDER BY v.id DESC`);
    const now = Date.now();
    for (const r of old) await tx.insert(jobs).values({ kind: REPAIR, mediaId: r.media_id, versionId: r.id, runAfter: now });
    return rows.length + old.length;
  });
}

/** The library check after an upgrade (REPAIR jobs), for the dashboard: null when none is waiting or running. */
export async function repairProgress(): Promise<RepairProgress | null> {
  const [row] = await db.all<{ total: number; done: number; remade: number; failed: number; open: number }>(sql`
    SELECT count(*) AS total,
      coalesce(sum(status = 'done'), 0) AS done,
      coalesce(sum(status = 'done' AND path IN ('remux', 'transcode')), 0) AS remade,
      coalesce(sum(status = 'failed'), 0) AS failed,
      coalesce(sum(status IN ('queued', 'running')), 0) AS open
    FROM jobs WHERE kind = ${REPAIR}
      -- This round only: a worker queues a round's repairs together when it starts.
      AND created_at >= (SELECT min(created_at) FROM jobs WHERE kind = ${REPAIR} AND status IN ('queued', 'running')) - 600000`);
  if (!row || !Number(row.open)) return null;
  return { done: Number(row.done), total: Number(row.total), remade: Number(row.remade), failed: Number(row.failed) };
}

function leaseUntil(now = Date.now()): number {
  return now + config.JOB_LEASE_SECONDS * 1000;
}

/**
 * Takes the next job due (queued, or running with an expired lease) for `owner`. Jobs
 * whose lease ran out on their last attempt are failed here.
 */
export async function claim(owner: string, onlyKinds?: readonly string[]): Promise<ClaimedJob | null> {
  // Without ffmpeg a worker still takes the jobs that need none (gallery stills, issue 42).
  const kinds = onlyKinds ? sql`AND kind IN (${sql.join(onlyKinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  const now = Date.now();
  return db.transaction(async (tx) => {
    const dead = await tx.all<{ version_id: number; kind: string }>(sql`
      UPDATE jobs SET status = 'failed', finished_at = ${now}, lease_owner = NULL,
        last_error = coalesce(last_error, 'The worker stopped while converting this video.')
      WHERE status = 'running' AND lease_expires_at < ${now} AND attempts >= max_attempts
      RETURNING version_id, kind`);
    for (const d of dead.filter((j) => j.kind === TRANSCODE)) {
      await updateVersionColumns(tx, d.version_id, { processingStatus: 'failed', processingError: 'The conversion stopped unexpectedly several times.' });
    }
    const [row] = await tx.all<{ id: number; media_id: number; version_id: number; kind: string; link_id: number | null; caption_burn_id: number | null; attempts: number; max_attempts: number; ffmpeg_threads: number | null }>(sql`
      UPDATE jobs SET status = 'running', lease_owner = ${owner}, lease_expires_at = ${leaseUntil(now)},
        attempts = attempts + 1, progress = 0
      WHERE id = (
        SELECT id FROM jobs
        WHERE attempts < max_attempts
          AND ((status = 'queued' AND run_after <= ${now}) OR (status = 'running' AND lease_expires_at < ${now}))
          ${kinds}
        ORDER BY run_after, id LIMIT 1)
      RETURNING id, media_id, version_id, kind, link_id, caption_burn_id, attempts, max_attempts, ffmpeg_threads`);
    if (!row) return null;
    if (row.kind === TRANSCODE) await updateVersionColumns(tx, row.version_id, { processingStatus: 'processing', processingProgress: 0 });
    return { id: row.id, mediaId: row.media_id, versionId: row.version_id, kind: row.kind, linkId: row.link_id, captionBurnId: row.caption_burn_id, attempts: row.attempts, maxAttempts: row.max_attempts, ffmpegThreads: row.ffmpeg_threads };
  });
}

/**
 * Renews the lease and records progress. False when the job is no longer this worker's
 * (its item was deleted or reprocessed, or the lease was lost): the worker must stop.
 */
export async function heartbeat(job: ClaimedJob, owner: string, progress: number): Promise<boolean> {
  const alive = await db
    .update(jobs)
    .set({ leaseExpiresAt: leaseUntil(), progress })
    .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  if (!alive.length) return false;
  if (job.kind !== TRANSCODE) return true;
  // Progress alone does not bump library_state (migration 0004): no list rebuild per tick.
  await updateVersionColumns(db, job.versionId, { processingProgress: progress }, 'processing');
  return true;
}

export interface JobResult {
  /** 'checked': a repair found the files exact and only re-marked them. */
  path: 'remux' | 'transcode' | 'checked';
  renditions: StoredRendition[];
  spriteUrl: string | null;
  version: number;
  /** Smaller rungs still to make: an upgrade job is queued with the ready state (a remux's ladder). */
  partial?: boolean;
}

/**
 * Marks the job done and, for a conversion, the version ready with `result` (a watermark job
 * has none). False when the job was taken away meanwhile.
 */
export async function complete(job: ClaimedJob, owner: string, result: JobResult | null): Promise<boolean> {
  let announce: number | null = null;
  const done = await db.transaction(async (tx) => {
    const mine = await tx
      .update(jobs)
      .set({ status: 'done', progress: 100, path: result?.path ?? null, finishedAt: new Date(), leaseOwner: null, lastError: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner), eq(jobs.status, 'running')))
      .returning({ id: jobs.id });
    if (!mine.length) return false;
    if ((job.kind === UPGRADE || job.kind === REPAIR) && result) {
      await updateVersionColumns(tx, job.versionId, { renditions: result.renditions, spriteUrl: result.spriteUrl });
      await bumpSiteVersion(tx);
      // Previews cut from the files replaced are cut again from the new ones.
      if (job.kind === REPAIR && result.path !== 'checked') await enqueueWatermarksOfVersion(tx, job.mediaId, job.versionId);
      return true;
    }
    if (job.kind !== TRANSCODE || !result) return true;
    await updateVersionColumns(tx, job.versionId, {
      processingStatus: 'ready',
      processingProgress: 100,
      processingError: null,
      renditions: result.renditions,
      spriteUrl: result.spriteUrl,
    });
    // Public pages embed the playback URL.
    await bumpSiteVersion(tx);
    // A remux plays now; its smaller rungs follow (transcode.ts, Plan.partial).
    if (result.partial) await tx.insert(jobs).values({ kind: UPGRADE, mediaId: job.mediaId, versionId: job.versionId });
    // Watermarked share links wait for the clean renditions to make their previews from.
    await enqueueWatermarksOfVersion(tx, job.mediaId, job.versionId);
    // A version added to an item is announced to its clients once it can play (issue 32). The
    // flag is cleared in this transaction, and only the worker still holding the job gets
    // here, so a retried or repeated conversion never announces it twice; a conversion that
    // fails leaves it set and announces nothing (a later successful "Process again" does).
    const [flagged] = await tx
      .update(mediaVersions)
      .set({ announceWhenReady: false })
      .where(and(eq(mediaVersions.id, job.versionId), eq(mediaVersions.announceWhenReady, true)))
      .returning({ number: mediaVersions.number });
    announce = flagged?.number ?? null;
    return true;
  });
  // After the commit, like every recordEvent (it never throws; the outbox does the sending).
  if (done && announce != null) await recordEvent({ kind: 'new_version', mediaId: job.mediaId, versionNumber: announce });
  return done;
}

/**
 * Records a failed attempt: queued again after a backoff, or failed for good on the last one.
 * `ffmpegThreads`: what the next attempt's ffmpeg may use (after an out-of-memory kill).
 */
export async function fail(job: ClaimedJob, owner: string, message: string, stderrTail: string, retry = true, ffmpegThreads?: number): Promise<void> {
  const final = !retry || job.attempts >= job.maxAttempts;
  const lastError = [message, stderrTail].filter(Boolean).join('\n').slice(-4000);
  // Staff see the reason and ffmpeg's last word, without server paths; the whole text is kept
  // on the job row (and the worker logs it).
  const shown = withoutPaths([message, stderrTail.trim().split('\n').pop()].filter(Boolean).join(': ')).slice(0, 500);
  await db.transaction(async (tx) => {
    const mine = await tx
      .update(jobs)
      .set(
        final
          ? { status: 'failed', finishedAt: new Date(), leaseOwner: null, lastError }
          : { status: 'queued', leaseOwner: null, lastError, runAfter: Date.now() + config.JOB_RETRY_BASE_MS * 2 ** (job.attempts - 1), ...(ffmpegThreads ? { ffmpegThreads } : {}) },
      )
      .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner), inArray(jobs.status, ['running'])))
      .returning({ id: jobs.id });
    if (!mine.length || job.kind !== TRANSCODE) return;
    await updateVersionColumns(tx, job.versionId, final ? { processingStatus: 'failed', processingError: shown } : { processingStatus: 'queued', processingProgress: 0 });
  });
}

/** The job row, for the reprocess answer and tests. */
/** How a run ended, for the metrics: done, retry (queued again), failed, or gone (deleted meanwhile). */
export async function jobOutcome(id: number): Promise<'done' | 'retry' | 'failed' | 'gone'> {
  const [row] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)).limit(1);
  if (!row) return 'gone';
  return row.status === 'done' ? 'done' : row.status === 'failed' ? 'failed' : 'retry';
}

export async function latestJob(mediaId: number) {
  const [row] = await db.select().from(jobs).where(and(eq(jobs.mediaId, mediaId), eq(jobs.kind, TRANSCODE))).orderBy(desc(jobs.id)).limit(1);
  return row ?? null;
}

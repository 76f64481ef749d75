// Environment is read and validated once, at start-up; everything else imports `config`.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// The machine, read once (issue 43): its cores, and its memory or the cgroup's limit when lower
// (systemd's MemoryMax, a container's), for the defaults of the video worker below.
const MIB = 1024 * 1024;
const machineCores = os.availableParallelism();
const machineMemory = Math.min(os.totalmem(), process.constrainedMemory() || Infinity);
// Threads of one ffmpeg: every core, but about 512 MiB of the memory for each (a 4K source's
// frames in flight grow with the threads); a 2 GB server gets at most 4, a 1 GB one 2.
const defaultFfmpegThreads = Math.max(1, Math.min(machineCores, 16, Math.floor(machineMemory / (512 * MIB))));
// Conversions at once per worker process: one per 4 cores and 4 GiB of memory, at least one.
const defaultWorkerJobs = Math.max(1, Math.min(Math.floor(machineCores / 4), Math.floor(machineMemory / (4096 * MIB))));

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('file:./data/studio.db'),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  // A read replica of the server database (sqld --primary-grpc-url) beside this process: reads of
  // cookieless requests go there, everything else to DATABASE_URL (src/db/read-routing.ts).
  DATABASE_REPLICA_URL: z.string().optional(),
  MEDIA_DIR: z.string().default('./data/media'),
  MEDIA_MAX_BYTES: z.coerce.number().int().positive().default(2500 * 1024 * 1024),
  // Decoded pixels an image may have (all frames of an animation together): a small PNG can
  // claim 16,383 x 16,383. Above it an upload is refused (415) from its header alone.
  IMAGE_MAX_PIXELS: z.coerce.number().int().positive().default(100_000_000),
  // Unfinished resumable uploads are removed this long after they were created (24 h).
  UPLOAD_EXPIRY_SECONDS: z.coerce.number().int().positive().default(24 * 60 * 60),
  SITE_URL: z.string().url().optional(),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  // Checked by the staff password rules when the first admin is made from it (src/db/seed.ts).
  ADMIN_PASSWORD: z.string().min(1).optional(),
  DEMO_CONTENT: bool(true),
  ALLOW_REGISTRATION: bool(false),
  // Behind a reverse proxy: take the scheme and client address from its X-Forwarded-* headers.
  TRUST_PROXY: bool(false),
  SMTP_URL: z.string().optional(),
  ENQUIRY_NOTIFY_TO: z.string().optional(),
  ENQUIRY_NOTIFY_FROM: z.string().optional(),
  // Notifications (issue 17, src/server/notifications): sender address, folder used when
  // there is no SMTP_URL, and the outbox loop's timing (short values are for tests).
  NOTIFY_FROM: z.string().optional(),
  NOTIFY_DIR: z.string().default('./data/outbox'),
  NOTIFY_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  // The daily digest goes out at this hour of the studio's day (STUDIO_TIME_ZONE).
  NOTIFY_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  // Set (ms) to send digests on this interval instead of daily: for tests and trials.
  NOTIFY_DIGEST_INTERVAL_MS: z.coerce.number().int().min(100).optional(),
  // The studio's time zone (IANA name), for the digests' hours: a UK studio by default.
  STUDIO_TIME_ZONE: z
    .string()
    .default('Europe/London')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-GB', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/London'),
  // Issue 57: each reviewer's daily email of what is due or overdue for them goes out at this
  // hour of the studio's day (skipped when nothing is); the interval (ms) is for tests.
  REVIEW_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  REVIEW_DIGEST_INTERVAL_MS: z.coerce.number().int().min(100).optional(),
  BACKUP_DIR: z.string().optional(),
  BACKUP_INTERVAL_HOURS: z.coerce.number().positive().max(24 * 366).default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  // Free space an upload must leave on the media file system (1 GiB).
  MIN_FREE_BYTES: z.coerce.number().int().min(0).default(1024 * 1024 * 1024),
  // GET /api/health gives its details (version, free space, worker, ffmpeg) to a monitor sending
  // `Authorization: Bearer <this>` (issue 51); anonymous callers get the status alone.
  HEALTH_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[\x21-\x7e]{32,}$/.test(v), 'must be at least 32 printable ASCII characters without spaces (openssl rand -hex 32)'),
  // GET /metrics (issue 56): Prometheus text for a scraper sending `Authorization: Bearer <this>`.
  // Unset: /metrics answers 404, as if it did not exist. Not HEALTH_TOKEN: metrics say more
  // (traffic, queue, disk), and a monitor set up for health should not switch them on.
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[\x21-\x7e]{32,}$/.test(v), 'must be at least 32 printable ASCII characters without spaces (openssl rand -hex 32)'),
  // The audit log (issue 56) keeps rows this many days (2 years); older ones are pruned, checked
  // every AUDIT_PRUNE_INTERVAL_MS (a day; short values are for tests). Fractions of a day are allowed.
  AUDIT_RETENTION_DAYS: z.coerce.number().positive().max(36_500).default(730),
  AUDIT_PRUNE_INTERVAL_MS: z.coerce.number().int().min(100).max(7 * 24 * 3600_000).default(24 * 3600_000),
  // Bytes the public page cache may hold (each page's HTML and its br/gzip copies), per process.
  PAGE_CACHE_BYTES: z.coerce.number().int().min(0).default(16 * 1024 * 1024),
  // Video processing (src/server/jobs): the worker runs inside `npm start` unless WORKER=off.
  WORKER: bool(true),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  JOB_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  FFMPEG_NICE: z.coerce.number().int().min(0).max(19).default(10),
  // Threads each conversion's ffmpeg may use, and conversions a worker process runs at once
  // (defaults from the machine, above). An attempt whose ffmpeg was killed by the system (out
  // of memory) is retried with half the threads (src/server/jobs/worker.ts).
  FFMPEG_THREADS: z.coerce.number().int().min(1).max(64).default(defaultFfmpegThreads),
  WORKER_JOBS: z.coerce.number().int().min(1).max(16).default(defaultWorkerJobs),
  // Open captions (issue 54) are drawn by libass in this font family, looked up in
  // CAPTION_FONTS_DIR first (then the system's fonts). Debian's fonts-dejavu-core by default.
  CAPTION_FONT: z.string().min(1).max(100).default('DejaVu Sans'),
  CAPTION_FONTS_DIR: z.string().default('/usr/share/fonts/truetype/dejavu'),
  // Where media files live (issue 18): the local MEDIA_DIR, or an S3-compatible bucket (then
  // MEDIA_DIR is only a working folder for uploads being processed and conversions).
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool(false),
  // redirect: the app checks access, then answers 302 to a presigned URL; proxy: it streams.
  S3_DELIVERY: z.enum(['redirect', 'proxy']).default('redirect'),
  S3_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(300).default(300),
  // Share links (issue 32): their addresses are kept encrypted (AES-256-GCM) with this key,
  // 32 bytes as 64 hex characters or base64. Unset: the key file below, made on first start.
  SHARE_LINK_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || decodeShareLinkKey(v) !== null, 'must be 32 bytes: 64 hex characters or their base64 (44 characters)'),
  // Where the generated key lives (mode 0600). Default: next to the database file.
  SHARE_LINK_KEY_FILE: z.string().min(1).optional(),
  // A key file other users may read or write stops start-up, unless this says it is meant so.
  ALLOW_OPEN_KEY_FILE: bool(false),
  // Live updates and live review (issue 41, src/server/live). How often each web process reads
  // the events table for rows other processes wrote (its own are sent at once), how long rows
  // are kept for a reconnecting tab to resume from, and the bounds.
  LIVE_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  LIVE_RETENTION_MS: z.coerce.number().int().min(10_000).max(24 * 3600_000).default(15 * 60_000),
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(12),
  LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(60),
  LIVE_STREAMS_PER_PROCESS: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  LIVE_SESSION_MAX_PARTICIPANTS: z.coerce.number().int().min(2).max(1000).default(50),
  LIVE_EVENTS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(30),
  // A link's guests together (passes are free to make: a bound per pass bounds nothing).
  LIVE_LINK_MAX_PARTICIPANTS: z.coerce.number().int().min(1).max(1000).default(10),
  LIVE_LINK_EVENTS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(60),
  LIVE_STROKE_BYTES: z.coerce.number().int().min(256).max(1_000_000).default(16 * 1024),
  LIVE_SLOW_CLIENT_BYTES: z.coerce.number().int().min(4096).max(64 * 1024 * 1024).default(256 * 1024),
  // A session whose presenter has been gone this long ends (2 minutes).
  LIVE_PRESENTER_GRACE_MS: z.coerce.number().int().min(500).max(3600_000).default(120_000),
  // Behind the shipped nginx (issue 33): after the access check the app answers
  // X-Accel-Redirect to this internal location and nginx sends the local file. `true` means
  // /_protected/; unset, empty or `false`: the app streams the file itself.
  ACCEL_REDIRECT: z
    .string()
    .optional()
    .transform((v) => (v === undefined || ['', 'false', '0', 'no', 'off'].includes(v) ? null : ['true', '1', 'yes', 'on'].includes(v) ? '/_protected/' : v))
    .refine((v) => v === null || /^\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/$/.test(v), 'a location such as /_protected/ (starting and ending with /), or true / false'),
});

/** A share-link key as written in SHARE_LINK_KEY or its file: 64 hex characters or base64 of 32 bytes. */
export function decodeShareLinkKey(text: string): Buffer | null {
  const v = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(v)) {
    const b = Buffer.from(v, 'base64');
    return b.length === 32 ? b : null;
  }
  return null;
}

/** Every variable read: docs/configuration.md describes each (tests/unit/docs-config.test.ts). */
export const configSchema = schema;

export type Config = z.infer<typeof schema> & {
  siteUrl: string;
  mediaDir: string;
  backupDir: string | null;
  notifyDir: string;
  /** SHARE_LINK_KEY decoded, or null: then the key file (src/server/sharing/link-key.ts). */
  shareLinkKey: Buffer | null;
  shareLinkKeyFile: string;
};

/** The key file's default: beside a local database file (so each data folder has its own), else ./data. */
function defaultKeyFile(databaseUrl: string): string {
  const m = /^file:(.+)$/.exec(databaseUrl);
  return path.resolve(m ? path.dirname(m[1]!.replace(/^\/\/(?=\/)/, '')) : './data', 'share-link.key');
}

function load(): Config {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const env = parsed.data;
  const mediaDir = path.resolve(env.MEDIA_DIR);
  const backupDir = env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null;
  // A backup folder inside the media folder would back itself up, growing every run.
  if (backupDir && (backupDir === mediaDir || backupDir.startsWith(mediaDir + path.sep))) {
    throw new Error('Invalid environment:\n  BACKUP_DIR: must not be inside MEDIA_DIR');
  }
  if (env.DATABASE_REPLICA_URL && (env.DATABASE_URL.startsWith('file:') || env.DATABASE_URL === ':memory:')) {
    throw new Error('Invalid environment:\n  DATABASE_REPLICA_URL: only with DATABASE_URL on a libSQL server (a replica follows a server, not a file)');
  }
  if (env.MEDIA_STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !env[k]);
    if (missing.length) throw new Error(`Invalid environment:\n${missing.map((k) => `  ${k}: required when MEDIA_STORAGE=s3`).join('\n')}`);
    // nginx can only send files from its own disk; S3 delivery stays on presigned redirects.
    if (env.ACCEL_REDIRECT) throw new Error('Invalid environment:\n  ACCEL_REDIRECT: only with MEDIA_STORAGE=local (S3 files are sent by presigned redirects)');
  }
  return {
    ...env,
    siteUrl: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    mediaDir,
    backupDir,
    notifyDir: path.resolve(env.NOTIFY_DIR),
    shareLinkKey: env.SHARE_LINK_KEY ? decodeShareLinkKey(env.SHARE_LINK_KEY) : null,
    shareLinkKeyFile: env.SHARE_LINK_KEY_FILE ? path.resolve(env.SHARE_LINK_KEY_FILE) : defaultKeyFile(env.DATABASE_URL),
  };
}

export const config: Config = load();

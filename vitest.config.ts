import { defineConfig } from 'vitest/config';

/** API tests of media files, resumable uploads and the video pipeline: run again on the S3 driver. */
const DRIVER_TESTS = [
  'tests/api/media-delivery.test.ts',
  'tests/api/uploads-tus.test.ts',
  'tests/api/video-processing.test.ts',
  'tests/api/media-api.test.ts',
  'tests/api/review-versions.test.ts',
  'tests/api/share-links.test.ts',
  'tests/api/gated-quality.test.ts',
  // nginx, two web processes and a worker on one database and one bucket.
  'tests/api/multi-process.test.ts',
  // hosts with folders of their own on one sqld (and a read replica) and one bucket.
  'tests/api/multi-host.test.ts',
];

/** Tests of a database server that a file database does not have (stopping it, a replica). */
const SQLD_ONLY = ['tests/api/database-outage.test.ts', 'tests/api/sqld-stall.test.ts'];

/**
 * API files that run again on a libSQL server (sqld): those whose work is the database's own —
 * transactions and batches, claims and leases across processes, caps and counters kept in SQL,
 * bootstrap and health on a server, backups, an outage, reads routed to a replica — and cheap
 * files of plain reads and writes through every table family. The rest of tests/api (HTTP shapes,
 * ffmpeg, nginx, refused bodies) runs the same SQL as these on the file, and ran on sqld in full
 * at 1,617 s of file time for 83 files (docs/testing.md, issue 52). SQLD_ALL=1 runs every API
 * file on sqld: do that after changing the database layer or writing SQL by hand.
 */
const ON_SQLD = [
  // A database server's own behaviour.
  ...SQLD_ONLY,
  'tests/api/two-process-races.test.ts',
  'tests/api/multi-process.test.ts',
  'tests/api/backup-restore.test.ts',
  'tests/api/health.test.ts',
  'tests/api/startup-banner.test.ts',
  // Claims, leases and outboxes shared by processes.
  'tests/api/video-worker.test.ts',
  'tests/api/notifications.test.ts',
  'tests/api/live-events.test.ts',
  'tests/api/live-sessions.test.ts',
  // Caps, counters and atomic writes kept in SQL.
  'tests/api/login-throttle.test.ts',
  'tests/api/proofing-picking.test.ts',
  'tests/api/proofing-downloads.test.ts',
  'tests/api/proofing-expiry.test.ts',
  'tests/api/review-versions.test.ts',
  'tests/api/uploads-tus.test.ts',
  'tests/api/media-list-cache.test.ts',
  'tests/api/consistency.test.ts',
  // Plain reads and writes through each family of tables (cheap).
  'tests/api/session.test.ts',
  'tests/api/privilege-escalation.test.ts',
  'tests/api/users-api.test.ts',
  'tests/api/roles-api.test.ts',
  'tests/api/clients-api.test.ts',
  'tests/api/media-api.test.ts',
  'tests/api/portal-media.test.ts',
  'tests/api/timeline-notes-bounds.test.ts',
  'tests/api/enquiries-api.test.ts',
  'tests/api/settings-api.test.ts',
  'tests/api/stats-api.test.ts',
  'tests/api/registration.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
    // No retries (the default): a test that passes only on its second run is hiding a bug (issue 22).
    projects: [
      {
        extends: true,
        test: {
          name: 'local',
          include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
          exclude: ['tests/api/s3-storage.test.ts', 'tests/api/multi-host.test.ts', ...SQLD_ONLY],
          // After each file, whatever it started and left running is stopped (issue 40).
          setupFiles: ['tests/setup/processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 's3',
          include: ['tests/api/s3-storage.test.ts', ...DRIVER_TESTS],
          // One Ceph radosgw for the run; each server makes its own bucket on it (issue 18).
          globalSetup: ['tests/setup/radosgw.ts'],
          setupFiles: ['tests/setup/s3-driver.ts', 'tests/setup/processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'sqld',
          // ON_SQLD (above), or the whole API suite with SQLD_ALL=1 (issue 44) but for files
          // that are the file's by nature: S3 alone, migrations of committed database files, and
          // the check that a server's environment names its database file.
          include: process.env.SQLD_ALL ? ['tests/api/**/*.test.ts'] : ON_SQLD,
          exclude: [
            'tests/api/s3-storage.test.ts',
            'tests/api/multi-host.test.ts',
            'tests/api/versions-migration.test.ts',
            'tests/api/note-times-migration.test.ts',
            'tests/api/stages-stills-migration.test.ts',
            'tests/api/upgrade-fixtures.test.ts',
            'tests/api/process-reaping.test.ts',
          ],
          // Each data folder gets a sqld of its own (tests/helpers/server.ts, issue 44); the
          // sqlds, like every process a test starts, are stopped after each file (issue 40).
          globalSetup: ['tests/setup/sqld.ts'],
          setupFiles: ['tests/setup/sqld-database.ts', 'tests/setup/processes.ts'],
        },
      },
    ],
  },
});

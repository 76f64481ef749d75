import { defineConfig } from 'vitest/config';

/**
 * API tests of media files, resumable uploads and the video pipeline: run again on the S3 driver,
 * and there on a libSQL server (sqld) instead of a file (issue 52). They run twice, not three
 * times: once on a database file and the disk driver ("local"), once on sqld and S3 ("s3"). The
 * database and the storage driver are independent layers, and each meets each of its two kinds;
 * the third run (sqld and disk) cost about 4 minutes of a CI run and found nothing the two do not.
 */
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
 * API files that do not run again on a libSQL server (sqld): their time goes to ffmpeg or to
 * thousands of refused bodies, and their database work is the same as in files that do run
 * (docs/database.md, "Tests on sqld"). SQLD_ALL=1 runs them on sqld too.
 */
const NOT_ON_SQLD = ['tests/api/fuzz-json-endpoints.test.ts', 'tests/api/frame-times.test.ts', 'tests/api/video-ladder.test.ts'];

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
          // One Ceph radosgw for the run; each server makes its own bucket on it (issue 18), and
          // each data folder a sqld of its own (as in "sqld").
          globalSetup: ['tests/setup/radosgw.ts', 'tests/setup/sqld.ts'],
          setupFiles: ['tests/setup/s3-driver.ts', 'tests/setup/sqld-database.ts', 'tests/setup/processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'sqld',
          // The API suite (issue 44).
          include: ['tests/api/**/*.test.ts'],
          // S3 only; the driver tests, which meet sqld in "s3"; migrations of old database files,
          // which start from a file; and the check that a server's environment names its database file.
          exclude: [
            'tests/api/s3-storage.test.ts',
            'tests/api/multi-host.test.ts',
            ...DRIVER_TESTS,
            'tests/api/versions-migration.test.ts',
            'tests/api/note-times-migration.test.ts',
            'tests/api/stages-stills-migration.test.ts',
            'tests/api/upgrade-fixtures.test.ts',
            'tests/api/process-reaping.test.ts',
            ...(process.env.SQLD_ALL ? [] : NOT_ON_SQLD),
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

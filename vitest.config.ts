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
          exclude: ['tests/api/s3-storage.test.ts'],
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
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
    // One Ceph radosgw for the run (tests that keep media in S3 make their own bucket on it).
    globalSetup: ['tests/setup/radosgw.ts'],
    // No retries (the default): a test that passes only on its second run is hiding a bug (issue 22).
  },
});

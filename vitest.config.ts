import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
    // One retry on CI absorbs timing noise on a loaded 2-core machine; a real failure fails twice.
    retry: process.env.CI ? 1 : 0,
  },
});

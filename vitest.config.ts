import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'jobs/**/*.test.ts', 'cli/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
    exclude: ['node_modules', 'tests/e2e/**', 'web/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});

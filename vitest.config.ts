import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships CJS (main) and ESM (module) builds; Node loads the CJS one for our dependencies,
  // so source under test must get the same copy or schemas are "from another realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['api/**/*.test.ts', 'prisma/**/*.test.ts', 'jobs/**/*.test.ts', 'cli/**/*.test.{ts,tsx}', 'client/**/*.test.ts', 'tests/**/*.test.ts', 'web/src/**/*.test.ts'],
    exclude: ['node_modules', 'tests/e2e/**', 'web/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});

// Browser tests in Debian's Chromium (no browser download is possible here) against one server on
// the embedded default, started once for the whole run (server.ts) with the built web app.
import { defineConfig } from '@playwright/test';
import { CHROMIUM, E2E_PORT } from './env';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts/,
  outputDir: '../../test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // One retry in CI only: a test that fails twice fails the run; one that passes on its retry is listed as
  // "flaky" with its failure context printed (fixtures.ts), to be fixed, never to block a landing on a loaded
  // machine. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: 'npx tsx tests/e2e/server.ts',
    cwd: '../..',
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});

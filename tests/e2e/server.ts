// The server of the browser tests: the built web app on the embedded default, in a fresh data
// directory, with known seeded accounts and a small CRM sandbox.
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { ADMIN, DEMO, E2E_PORT } from './env.js';

execSync('npx tsx scripts/build-web-if-stale.ts', { stdio: 'inherit' });
const config = loadConfig({
  PORT: String(E2E_PORT),
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-e2e-')),
  LOG_LEVEL: 'warn',
  SANDBOX_CONTACTS: '600',
  SEED_ADMIN_EMAIL: ADMIN.email,
  SEED_ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO_EMAIL: DEMO.email,
  SEED_DEMO_PASSWORD: DEMO.password,
  GENERATION_CRON: 'off',
  MAINTENANCE_CRON: 'off',
  // Every spec registers its own users from 127.0.0.1: one address, far beyond a real one's budget.
  REGISTER_MAX_PER_IP: '100000',
  PASSWORD_RESET_MAX_PER_IP: '100000',
});
const app = buildApp(config, { logger: createLogger('warn'), onSeeded: () => {} });
await app.start();
await seedUsageHistory();
console.log(`e2e server on ${app.url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void app.stop().then(() => process.exit(0)));

/**
 * Usage history of the demo account: a day of usage every few days over the last 30 (the admin
 * chart) and six records older than the 90-day retention (the cleanup flow has something to delete).
 */
async function seedUsageHistory() {
  const demo = await app.deps.prisma.user.findUniqueOrThrow({ where: { email: DEMO.email } });
  const day = (ago: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - ago));
  const ages = [...[3, 6, 9, 14, 20, 27], ...[120, 150, 180, 200, 240, 300]];
  await app.deps.prisma.dailyUsage.createMany({
    data: ages.map((ago, i) => ({ userId: demo.id, date: day(ago), chatQueriesUsed: 2 + (i % 5), smartSegmentsUsed: i % 3 })),
    skipDuplicates: true,
  });
}

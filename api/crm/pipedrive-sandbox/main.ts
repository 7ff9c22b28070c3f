/**
 * Standalone Pipedrive sandbox (started by `npm run sandbox` next to the HubSpot one, or alone with
 * `tsx api/crm/pipedrive-sandbox/main.ts`). Port from PIPEDRIVE_SANDBOX_PORT (default 4012).
 * Env: SANDBOX_CONTACTS (default 5000), SANDBOX_SEED (default 42), PIPEDRIVE_SANDBOX_BURST (requests per
 * 2 s per token, default 40 / 160 OAuth), PIPEDRIVE_SANDBOX_DAILY_BUDGET (tokens, default 180000),
 * SANDBOX_REDIRECT_URIS (comma-separated, adds to the defaults; only .../pipedrive/callback ones are used).
 */
import { serve } from '@hono/node-server';
import { pathToFileURL } from 'node:url';
import { createPipedriveSandbox, DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS } from './app.js';

export function startPipedriveSandboxFromEnv(env: NodeJS.ProcessEnv = process.env): { close(): void } {
  const port = Number(env.PIPEDRIVE_SANDBOX_PORT ?? 4012);
  const extra = (env.SANDBOX_REDIRECT_URIS ?? '').split(',').map((s) => s.trim()).filter((s) => s.includes('/pipedrive/'));
  const started = performance.now();
  const sandbox = createPipedriveSandbox({
    personCount: Number(env.SANDBOX_CONTACTS ?? 5000),
    seed: Number(env.SANDBOX_SEED ?? 42),
    burstLimit: env.PIPEDRIVE_SANDBOX_BURST ? Number(env.PIPEDRIVE_SANDBOX_BURST) : undefined,
    dailyTokenBudget: env.PIPEDRIVE_SANDBOX_DAILY_BUDGET ? Number(env.PIPEDRIVE_SANDBOX_DAILY_BUDGET) : undefined,
    redirectUris: [...DEFAULT_PIPEDRIVE_SANDBOX_CREDENTIALS.redirectUris, ...extra],
  });
  const server = serve({ fetch: sandbox.app.fetch, port, hostname: env.SANDBOX_HOST ?? '127.0.0.1' }, (info) => {
    const base = `http://${info.address}:${info.port}`;
    const { config } = sandbox;
    console.log(`Pipedrive sandbox listening on ${base} (${sandbox.data.persons.length} persons, ${sandbox.data.deals.length} deals in ${Math.round(performance.now() - started)} ms)`);
    console.log(`  company:            ${config.companyName} (id ${config.companyId})`);
    console.log(`  API token:          ${config.apiTokens[0]}`);
    console.log(`  OAuth client id:    ${config.clientId}`);
    console.log(`  OAuth client secret:${' '}${config.clientSecret}`);
    console.log(`  redirect URIs:      ${config.redirectUris.join(', ')}`);
    console.log(`  try: curl -s '${base}/api/v2/persons?limit=2' -H 'x-api-token: ${config.apiTokens[0]}'`);
  });
  return { close: () => server.close() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const running = startPipedriveSandboxFromEnv();
  const stop = () => {
    running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

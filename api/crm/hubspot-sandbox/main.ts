/**
 * Standalone sandboxes: `npm run sandbox` serves HubSpot's (port from SANDBOX_PORT, default 4010) and
 * every other CRM's on its own port (Pipedrive: PIPEDRIVE_SANDBOX_PORT, default 4012; Zoho:
 * SANDBOX_ZOHO_PORT, default 4013).
 * Env: SANDBOX_CONTACTS (default 5000), SANDBOX_SEED (default 42), SANDBOX_RATE_LIMIT (default 5),
 * SANDBOX_REDIRECT_URIS (comma-separated, adds to the defaults).
 */
import { serve } from '@hono/node-server';
import { startPipedriveSandboxFromEnv } from '../pipedrive-sandbox/main.js';
import { createHubSpotSandbox, DEFAULT_SANDBOX_CREDENTIALS } from './app.js';
import { startStandaloneZohoSandbox } from '../zoho-sandbox/main.js';

const port = Number(process.env.SANDBOX_PORT ?? 4010);
const extraRedirects = (process.env.SANDBOX_REDIRECT_URIS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const started = performance.now();
const sandbox = createHubSpotSandbox({
  contactCount: Number(process.env.SANDBOX_CONTACTS ?? 5000),
  seed: Number(process.env.SANDBOX_SEED ?? 42),
  rateLimitPerSecond: Number(process.env.SANDBOX_RATE_LIMIT ?? 5),
  redirectUris: [...DEFAULT_SANDBOX_CREDENTIALS.redirectUris, ...extraRedirects],
});
const server = serve({ fetch: sandbox.app.fetch, port, hostname: process.env.SANDBOX_HOST ?? '127.0.0.1' }, (info) => {
  const base = `http://${info.address}:${info.port}`;
  console.log(`HubSpot sandbox listening on ${base} (${sandbox.store.size} contacts in ${Math.round(performance.now() - started)} ms)`);
  console.log(`  hub id:             ${sandbox.config.hubId}`);
  console.log(`  private-app token:  ${sandbox.config.privateAppTokens[0]}`);
  console.log(`  OAuth client id:    ${sandbox.config.clientId}`);
  console.log(`  OAuth client secret:${' '}${sandbox.config.clientSecret}`);
  console.log(`  redirect URIs:      ${sandbox.config.redirectUris.join(', ')}`);
  console.log(`  try: curl -s -X POST ${base}/crm/v3/objects/contacts/search -H 'authorization: Bearer ${sandbox.config.privateAppTokens[0]}' -H 'content-type: application/json' -d '{"limit":2}'`);
});

// The other CRMs' sandboxes, each on its own port (see their main.ts).
const others = [startPipedriveSandboxFromEnv(), startStandaloneZohoSandbox()];

const stop = () => {
  for (const o of others) o.close();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/**
 * Standalone Salesforce sandbox (started by `npm run sandbox` with the other CRM sandboxes; alone:
 * `tsx api/crm/salesforce-sandbox/main.ts`). Port from SALESFORCE_SANDBOX_PORT (default 4011).
 * Env: SANDBOX_CONTACTS (default 5000), SANDBOX_SEED (default 42), SALESFORCE_SANDBOX_DAILY_API_REQUESTS
 * (default 100000), SALESFORCE_SANDBOX_TIME_ZONE (default America/Los_Angeles),
 * SANDBOX_REDIRECT_URIS (comma-separated, adds to the defaults).
 */
import { serve } from '@hono/node-server';
import { createSalesforceSandbox, DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS } from './app.js';

const port = Number(process.env.SALESFORCE_SANDBOX_PORT ?? 4011);
const extraRedirects = (process.env.SANDBOX_REDIRECT_URIS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const started = performance.now();
const sandbox = createSalesforceSandbox({
  contactCount: Number(process.env.SANDBOX_CONTACTS ?? 5000),
  seed: Number(process.env.SANDBOX_SEED ?? 42),
  dailyApiRequests: Number(process.env.SALESFORCE_SANDBOX_DAILY_API_REQUESTS ?? 100_000),
  timeZone: process.env.SALESFORCE_SANDBOX_TIME_ZONE ?? 'America/Los_Angeles',
  redirectUris: [...DEFAULT_SALESFORCE_SANDBOX_CREDENTIALS.redirectUris, ...extraRedirects],
});
const server = serve({ fetch: sandbox.app.fetch, port, hostname: process.env.SANDBOX_HOST ?? '127.0.0.1' }, (info) => {
  const base = `http://${info.address}:${info.port}`;
  const { rows } = sandbox.org;
  console.log(
    `Salesforce sandbox listening on ${base} (${rows.Lead.filter((l) => !l.IsConverted).length} leads, ${rows.Contact.length} contacts, ` +
      `${rows.Opportunity.length} opportunities in ${Math.round(performance.now() - started)} ms)`,
  );
  console.log(`  instance / login URL: ${base}`);
  console.log(`  org id:               ${sandbox.identity.orgId}`);
  console.log(`  access token:         ${sandbox.config.accessTokens[0]}`);
  console.log(`  consumer key:         ${sandbox.config.clientId}`);
  console.log(`  consumer secret:${' '.repeat(6)}${sandbox.config.clientSecret}`);
  console.log(`  callback URLs:        ${sandbox.config.redirectUris.join(', ')}`);
  console.log(`  try: curl -s '${base}/services/data/v62.0/query?q=SELECT+COUNT()+FROM+Contact' -H 'authorization: Bearer ${sandbox.config.accessTokens[0]}'`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

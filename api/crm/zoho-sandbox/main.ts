/**
 * Standalone Zoho CRM sandbox (started by `npm run sandbox` next to the HubSpot one; port from
 * SANDBOX_ZOHO_PORT, default 4013). Env: SANDBOX_CONTACTS (default 5000), SANDBOX_SEED (default 42),
 * SANDBOX_ZOHO_DC (the org's data centre, default us), SANDBOX_ZOHO_CREDITS (API credits per 24 h,
 * default 60000), SANDBOX_REDIRECT_URIS (comma-separated, adds to the defaults).
 */
import { serve } from '@hono/node-server';
import { createZohoSandbox, DEFAULT_ZOHO_CREDENTIALS, ZOHO_READ_SCOPES } from './app.js';
import { isZohoDataCentre } from '../zoho/data-centres.js';

export function startStandaloneZohoSandbox(env: NodeJS.ProcessEnv = process.env) {
  const port = Number(env.SANDBOX_ZOHO_PORT ?? 4013);
  const dc = env.SANDBOX_ZOHO_DC ?? 'us';
  if (!isZohoDataCentre(dc)) throw new Error(`SANDBOX_ZOHO_DC: unknown data centre ${dc}`);
  const extraRedirects = (env.SANDBOX_REDIRECT_URIS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const started = performance.now();
  const sandbox = createZohoSandbox({
    contactCount: Number(env.SANDBOX_CONTACTS ?? 5000),
    seed: Number(env.SANDBOX_SEED ?? 42),
    dataCentre: dc,
    dailyCredits: Number(env.SANDBOX_ZOHO_CREDITS ?? 60_000),
    redirectUris: [...DEFAULT_ZOHO_CREDENTIALS.redirectUris, ...extraRedirects],
  });
  const server = serve({ fetch: sandbox.app.fetch, port, hostname: env.SANDBOX_HOST ?? '127.0.0.1' }, (info) => {
    const base = `http://${info.address}:${info.port}`;
    const { Leads, Contacts, Deals } = sandbox.state.dataset;
    const tok = sandbox.issueTestToken();
    console.log(`Zoho CRM sandbox listening on ${base} (${Leads.length} leads, ${Contacts.length} contacts, ${Deals.length} deals in ${Math.round(performance.now() - started)} ms)`);
    console.log(`  data centre:        ${dc}  (accounts server ${base}/accounts/${dc}, API domain ${base}/api/${dc})`);
    console.log(`  OAuth client id:    ${sandbox.config.clientId}`);
    console.log(`  OAuth client secret:${' '}${sandbox.config.clientSecret}`);
    console.log(`  self client id:     ${sandbox.config.selfClientId}`);
    console.log(`  self client secret: ${sandbox.config.selfClientSecret}`);
    console.log(`  redirect URIs:      ${sandbox.config.redirectUris.join(', ')}`);
    console.log(`  a grant code:       curl -s -X POST '${base}/accounts/${dc}/developerconsole/self-client/code?scope=${ZOHO_READ_SCOPES.join(',')}'`);
    console.log(`  try: curl -s -X POST ${base}/api/${dc}/crm/v7/coql -H 'authorization: Zoho-oauthtoken ${tok.accessToken}' -d '{"select_query":"select Last_Name, Email from Contacts where Email is not null limit 2"}'`);
  });
  return server;
}

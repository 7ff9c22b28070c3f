// Entry point: read config, build the app, start it, stop gracefully on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { SANDBOX_PATH } from './crm/endpoints.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from './crm/hubspot-sandbox/index.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}

const app = buildApp(config);
const { url } = await app.start();
console.log(`CRM Assistant is running at ${url}`);
if (app.sandbox) {
  console.log(
    `HubSpot sandbox: ${url}${SANDBOX_PATH} (${config.sandbox.contacts} contacts); demo private-app token: ${DEFAULT_SANDBOX_CREDENTIALS.privateAppToken}`,
  );
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await app.stop();
    process.exit(0);
  });
}

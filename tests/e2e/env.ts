// What the browser tests and their server agree on.
import { existsSync } from 'node:fs';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3999);
export const ADMIN = { email: 'admin@e2e.local', password: 'admin-password-e2e' };
export const DEMO = { email: 'demo@e2e.local', password: 'demo-password-e2e' };
export const SANDBOX_TOKEN = 'pat-na1-7c1e9a52-3f4b-4d8e-b6a0-2c5d8e1f4a97';
export const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';
/** The Zoho sandbox's self client (api/crm/zoho-sandbox/state.ts DEFAULT_ZOHO_CREDENTIALS). */
export const ZOHO_SELF_CLIENT = { clientId: '1000.S3LFCL1ENT0SANDB0X7Q2W8E4R6T9Y', clientSecret: '9b2e7d4a1c8f6053b2e9d7a4c1f8b6e0d3a5c7f9b2' };

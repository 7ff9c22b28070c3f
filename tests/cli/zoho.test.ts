// `crm` for a Zoho CRM user: the real server on the embedded default with its in-process Zoho sandbox,
// a user connected with a self client's grant code, and the CLI as a subprocess (the bin users run).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { personIdOfRecord } from '../../api/crm/zoho-sandbox/data.js';
import type { ZohoSandbox } from '../../api/crm/zoho-sandbox/index.js';
import { expectedIds, registerUser } from '../helpers/crm.js';
import { buildCli, crm } from './run-crm.js';

let app: App;
let url: string;

beforeAll(async () => {
  buildCli();
  app = buildApp(
    loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-zoho-cli-')), LOG_LEVEL: 'silent', SANDBOX_CONTACTS: '800', GENERATION_CRON: 'off', MAINTENANCE_CRON: 'off' }),
    { logger: createLogger('silent'), onSeeded: () => {} },
  );
  ({ url } = await app.start(0));
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('crm for a Zoho user', () => {
  it('signs in, says the CRM is connected, answers with the same people as HubSpot, and writes every customer as CSV', async () => {
    const u = await registerUser(url, { crmType: 'zoho' });
    const zoho = app.sandboxes.get('zoho') as ZohoSandbox;
    const grant = zoho.issueSelfClientGrant();
    const token = JSON.stringify({ client_id: zoho.config.selfClientId, client_secret: zoho.config.selfClientSecret, code: grant.code });
    expect((await u.c.post('/api/crm/token', { token })).status).toBe(200);

    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-home-'));
    const login = await crm(['login', '--server', url, '--email', u.email], { home, input: 'pw-123456\n' });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse((await crm(['whoami', '--json'], { home })).stdout)).toMatchObject({ email: u.email, crmConnected: true });

    const expected = await expectedIds(app, 'leads in Canada');
    expect(expected.length).toBeGreaterThan(3);
    const q = await crm(['query', 'leads in Canada', '--json', '--limit', '3'], { home });
    expect(q.code, q.stderr).toBe(0);
    const out = JSON.parse(q.stdout);
    expect(out).toMatchObject({ resultCount: expected.length, hasError: false });
    expect(out.customers.map((c: { id: string }) => personIdOfRecord(c.id))).toEqual(expected.slice(0, 3).map(Number));

    const all = await crm(['query', 'customers', '--csv'], { home });
    expect(all.code, all.stderr).toBe(0);
    const rows = parse(all.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => personIdOfRecord(r.id)).sort((a, b) => a! - b!)).toEqual((await expectedIds(app, 'customers')).map(Number).sort((a, b) => a - b));
  }, 120_000);
});

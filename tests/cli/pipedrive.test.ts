// `crm` for a user who registered with Pipedrive: the real server on the embedded default (its
// in-process Pipedrive sandbox), the CLI as a subprocess — whoami, a question, an export to a file,
// and a Smart Segment unlocked and downloaded; answers checked against the sandbox's people.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../api/app.js';
import { loadConfig } from '../../api/config.js';
import { createLogger } from '../../api/logger.js';
import { generateSegmentsFor } from '../helpers/generation.js';
import { expectedPipedrive, pipedriveUser } from '../helpers/pipedrive.js';
import { buildCli, crm } from './run-crm.js';

let app: App;
let url: string;

beforeAll(async () => {
  buildCli();
  app = buildApp(
    loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'crm-pd-cli-')), LOG_LEVEL: 'silent', SANDBOX_CONTACTS: '800', GENERATION_CRON: 'off', MAINTENANCE_CRON: 'off' }),
    { logger: createLogger('silent'), onSeeded: () => {} },
  );
  ({ url } = await app.start(0));
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('crm for a Pipedrive user', () => {
  it('asks, exports and downloads a Smart Segment from Pipedrive', async () => {
    const u = await pipedriveUser(app, url);
    const home = mkdtempSync(path.join(os.tmpdir(), 'crm-pd-home-'));
    const run = (args: string[], input?: string, cwd?: string) => crm(args, { home, input, cwd });
    expect((await run(['login', '--server', url, '--email', u.email], 'pw-123456\n')).code).toBe(0);
    expect(JSON.parse((await run(['whoami', '--json'])).stdout)).toMatchObject({ crmConnected: true });

    const question = 'customers in Germany';
    const want = await expectedPipedrive(app, question);
    expect(want.length).toBeGreaterThan(5);
    const asked = await run(['query', question, '--json', '--limit', '5']);
    expect(asked.code, asked.stderr).toBe(0);
    const out = JSON.parse(asked.stdout);
    expect(out).toMatchObject({ resultCount: want.length, hasError: false });
    expect(out.customers.map((c: { id: string }) => c.id)).toEqual(want.slice(0, 5).map((r) => r.id));

    const [{ queryId }] = JSON.parse((await run(['history', '--json'])).stdout);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-pd-export-'));
    const file = path.join(dir, 'de.csv');
    const exported = await run(['export', queryId.slice(0, 8), '-o', file, '--page-size', '10']);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual(want.map((r) => r.id));

    await generateSegmentsFor(app.deps, [u.userId]);
    const segments = await app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId: u.userId } });
    expect(segments.length).toBeGreaterThan(0);
    expect(segments.every((s) => !s.hasError)).toBe(true);
    const target = segments.filter((s) => s.customerCount > 0).sort((a, b) => b.customerCount - a.customerCount)[0];
    const short = target.id.slice(0, 8);
    expect((await run(['smart', 'unlock', short, '--yes'])).code).toBe(0);
    const smartDir = mkdtempSync(path.join(os.tmpdir(), 'crm-pd-smart-'));
    const got = await run(['smart', 'download', short], undefined, smartDir);
    expect(got.code, got.stderr).toBe(0);
    const [csv] = readdirSync(smartDir);
    expect(parse(readFileSync(path.join(smartDir, csv), 'utf8'), { columns: true, bom: true })).toHaveLength(target.customerCount);
  }, 180_000);
});

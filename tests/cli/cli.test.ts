// `crm` end to end: the real server on the embedded default (PGlite in a temporary DATA_DIR, the
// in-process HubSpot sandbox), one for the whole file, and the CLI as a subprocess — the bin users
// run, on its bundle — with a config directory per person, no terminal, no colour (harness.ts).
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { dayToDate, usageDay } from '../../api/services/usage.js';
import { CUSTOMER_COLUMNS } from '../../client/csv.js';
import { connectedUser, expectedIds } from '../helpers/crm.js';
import { flakyProxy } from '../helpers/flaky-proxy.js';
import { ADMIN, cliHarness, PASSWORD } from './harness.js';
import { crm } from './run-crm.js';

const h = cliHarness();
const { person, signedIn, connectedPerson } = h;

describe('crm login, whoami, logout', () => {
  it('signs in with the password on stdin and keeps the token readable by the user only', async () => {
    const u = await connectedUser(h.app, h.url);
    const p = person();
    const wrong = await p.run(['login', '--server', h.url, '--email', u.email], 'not-the-password\n');
    expect(wrong).toMatchObject({ code: 1, stdout: '', stderr: 'error: Login failed: Invalid email or password\n' });
    const noEmail = await p.run(['login', '--server', h.url], `${PASSWORD}\n`);
    expect(noEmail.code).toBe(1);
    expect(noEmail.stderr).toMatch(/^error: --email is required when the password comes from standard input/);

    const ok = await p.run(['login', '--server', h.url, '--email', u.email], `${PASSWORD}\n`);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('✔ Login successful! — Welcome back!');
    expect(ok.stdout).toContain(u.email);
    const dir = path.join(p.home, 'crm-assistant');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    expect(saved).toMatchObject({ server: h.url, logins: { [h.url]: { email: u.email, tokenName: expect.stringMatching(/^crm CLI on /) } } });
    expect(saved.logins[h.url].token).toMatch(/^crm_pat_/);

    const who = await p.run(['whoami', '--json']);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ server: h.url, email: u.email, isAdmin: false, tierName: 'Free Plan', crmConnected: true });

    // Signing in again replaces the token and revokes the previous one.
    await p.run(['login', '--server', h.url, '--email', u.email], `${PASSWORD}\n`);
    const tokens = await h.app.deps.prisma.personalAccessToken.findMany({ where: { userId: u.userId } });
    expect(tokens.filter((t) => !t.revokedAt)).toHaveLength(1);

    const out = await p.run(['logout']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Signed out');
    expect(await h.app.deps.prisma.personalAccessToken.count({ where: { userId: u.userId, revokedAt: null } })).toBe(0);
    const after = await p.run(['whoami']);
    expect(after).toMatchObject({ code: 1, stderr: `error: Not signed in to ${h.url}. Run crm login first (or set CRM_TOKEN)\n` });
  });

  it('exits 2 when the server cannot be reached', async () => {
    const p = person();
    mkdirSync(path.join(p.home, 'crm-assistant'), { recursive: true });
    writeFileSync(path.join(p.home, 'crm-assistant', 'config.json'), JSON.stringify({ server: 'http://127.0.0.1:9', token: 'crm_pat_x', email: 'x@example.com' }));
    const r = await p.run(['usage']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Could not reach the server at http:\/\/127\.0\.0\.1:9\/graphql/);
  });
});

describe('crm query', () => {
  it('--json: the counts, how it was understood and the first --limit customers', async () => {
    const p = await connectedPerson();
    const question = 'leads in Canada';
    const expected = await expectedIds(h.app, question);
    expect(expected.length).toBeGreaterThan(5);
    const r = await p.run(['query', question, '--json', '--limit', '5']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ resultCount: expected.length, hasError: false, query: { naturalLanguage: question } });
    expect(out.understood.clauses.map((c: any) => c.anyOf.map((a: any) => a.label).join('|'))).toEqual(['leads', 'in Canada']);
    expect(out.understood.ignoredPhrases).toEqual([]);
    expect(out.customers).toHaveLength(5);
    expect(out.customers.map((c: any) => c.id)).toEqual(expected.slice(0, 5));
    expect(Object.keys(out.customers[0])).toEqual(expect.arrayContaining([...CUSTOMER_COLUMNS]));
  });

  it('a question understood in part: without a terminal it exits 1 listing the choices (nothing run, no quota); --choice N and --as-understood run one', async () => {
    const p = await connectedPerson();
    const question = 'leads in Canada with pink hats';
    const asked = await p.run(['query', question]);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toBe('');
    expect(asked.stderr).toContain('I understood: Leads · in Canada. I didn\'t understand "pink hats".');
    expect(asked.stderr).toMatch(/Choices:\n {2}1\. Search with what I understood\n/);
    expect(asked.stderr).toMatch(/error: The question needs a choice: nothing was run and no query was used\. Run it again with --choice N \(one of the choices listed\), or --as-understood\n$/);
    // --json: the choices in the error document
    const json = await p.run(['query', question, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'CLARIFICATION', exitCode: 1, details: { choices: [{ choice: 1, label: 'Search with what I understood', asUnderstood: true }] } });
    expect(JSON.parse((await p.run(['usage', '--json'])).stdout)).toMatchObject({ chatQueriesUsed: 0 });

    const expected = await expectedIds(h.app, 'leads in Canada');
    const picked = await p.run(['query', question, '--choice', '1', '--json', '--limit', '3']);
    expect(picked.code, picked.stderr).toBe(0);
    const out = JSON.parse(picked.stdout);
    expect(out).toMatchObject({ resultCount: expected.length, query: { naturalLanguage: question } });
    expect(out.understood.ignoredPhrases).toEqual(['pink hats']);
    expect(out.message).toMatch(/I ignored: 'pink hats'\.$/);
    const own = await p.run(['query', question, '--as-understood', '--json', '--limit', '1']);
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse((await p.run(['usage', '--json'])).stdout)).toMatchObject({ chatQueriesUsed: 2 });
    // a choice that is not there
    const none = await p.run(['query', question, '--choice', '7']);
    expect(none).toMatchObject({ code: 1, stderr: 'error: There is no choice 7: the question has 1. Run it without --choice to see them\n' });
  });

  it('--csv: ALL customers as CSV on stdout, beyond the 1,000 a query keeps', async () => {
    const p = await connectedPerson();
    const expected = await expectedIds(h.app, 'customers');
    expect(expected.length).toBe(1500);
    const r = await p.run(['query', 'customers', '--csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('id,firstName,')).toBe(true); // stdout: no byte-order mark for the program reading it
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual([...CUSTOMER_COLUMNS]);
    expect(rows.map((row) => row.id).sort()).toEqual([...expected].sort());
    expect(r.stderr).toContain('Wrote 1,500 customers to standard output');
  });

  it('piped: the customers as TSV with full values on stdout; the outcome and how it was understood on stderr', async () => {
    const p = await connectedPerson();
    const r = await p.run(['query', 'top 3 customers by lifetime value']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('✔ Search completed — Found 3 customers matching your criteria.');
    expect(r.stderr).toContain('↕ sorted by lifetime value, highest first, at most 3');
    expect(r.stderr).toMatch(/Showing 3 of 3 · query [0-9a-f]{8}\n/);
    const [header, ...rows] = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(header).toEqual(['ID', 'Name', 'Email', 'Company', 'Stage', 'Location', 'Last purchase', 'Lifetime value']);
    expect(rows).toHaveLength(3);
    const values = rows.map((row) => Number(row[7]));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    // Full values: whole emails, ISO dates and plain numbers, never cut with an ellipsis.
    for (const row of rows) {
      expect(row).toHaveLength(8);
      expect(row.join('')).not.toContain('…');
      expect(row[7]).toMatch(/^\d+$/);
    }
  });

  it('a question with nothing understood exits 1 with examples, uses no quota and keeps no query', async () => {
    const p = await connectedPerson();
    const r = await p.run(['query', 'zxqv blorp']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .+ Try for example "[^"]+"/);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(JSON.parse((await p.run(['history', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await p.run(['usage', '--json'])).stdout)).toMatchObject({ chatQueriesUsed: 0 });
  });

  it('refuses at the daily limit with exit 1 and the spec\'s wording', async () => {
    const p = await connectedPerson();
    const date = dayToDate(usageDay(h.app.deps.now(), h.app.deps.config.usageTimeZone));
    await h.app.deps.prisma.dailyUsage.upsert({
      where: { userId_date: { userId: p.userId, date } },
      create: { userId: p.userId, date, chatQueriesUsed: 10 },
      update: { chatQueriesUsed: 10 },
    });
    const r = await p.run(['query', 'leads']);
    expect(r).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "error: You've reached your daily limit: You've used 10 of 10 queries today. Upgrade your plan or wait until tomorrow when limits reset. See crm usage\n",
    });
    const usage = await p.run(['usage']);
    expect(usage.stdout).toMatch(/Queries\s+█{24}\s+10\/10 limit reached/);
    expect(usage.stdout).toContain('Upgrade Required');
  });

  it('history and rerun by the id prefix the tables show', async () => {
    const p = await connectedPerson();
    await p.run(['query', 'leads in Canada', '--json']);
    const history = JSON.parse((await p.run(['history', '--json'])).stdout);
    expect(history).toHaveLength(1);
    const again = await p.run(['rerun', history[0].queryId.slice(0, 8), '--json', '--limit', '1']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ query: { queryId: history[0].queryId }, resultCount: history[0].resultCount });
    const bad = await p.run(['rerun', 'zz']);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: "zz" is not an id: give the id shown by crm (at least its first 4 characters)\n' });
  });
});

describe('crm export', () => {
  it('streams every customer of a query into a file, with progress on stderr', async () => {
    const p = await connectedPerson();
    const question = 'customers in North America';
    const expected = await expectedIds(h.app, question);
    expect(expected.length).toBeGreaterThan(300);
    await p.run(['query', question, '--json', '--limit', '1']);
    const [{ queryId }] = JSON.parse((await p.run(['history', '--json'])).stdout);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-export-'));
    const file = path.join(dir, 'na.csv');
    const r = await p.run(['export', queryId.slice(0, 8), '-o', file, '--page-size', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    const total = expected.length.toLocaleString('en-US');
    expect(lines[0]).toMatch(new RegExp(`^Exported 100 of ${total} customers \\(\\d+%\\)$`));
    expect(lines).toContain(`Exported ${total} of ${total} customers (100%)`);
    expect(lines[lines.length - 1]).toBe(`Exported ${total} customers to ${file}`);
    const written = readFileSync(file, 'utf8');
    expect(written.startsWith('\uFEFFid,firstName,')).toBe(true); // a file: with the BOM Excel needs
    const rows = parse(written, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => row.id).sort()).toEqual([...expected].sort());
    expect(readdirSync(dir)).toEqual(['na.csv']); // no .part file left

    const stranger = await connectedPerson();
    const refused = await stranger.run(['export', queryId]);
    expect(refused).toMatchObject({ code: 1, stderr: `error: No query or Smart Segment with id ${queryId}\n` });
  });
});

describe('crm export when the server goes away', () => {
  it('reads the lost page again once the server is back: every customer, once, and the user is told', async () => {
    const u = await connectedUser(h.app, h.url);
    const question = 'customers in North America';
    const expected = await expectedIds(h.app, question);
    const proxy = await flakyProxy({ host: '127.0.0.1', port: Number(new URL(h.url).port) });
    try {
      const p = person();
      expect((await p.run(['login', '--server', proxy.url, '--email', u.email], `${PASSWORD}\n`)).code).toBe(0);
      await p.run(['query', question, '--json', '--limit', '1']);
      const [{ queryId }] = JSON.parse((await p.run(['history', '--json'])).stdout);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-export-'));
      const file = path.join(dir, 'na.csv');
      // The export's second page is cut, then the next two connections: three failed attempts at
      // one page, as during a restart.
      proxy.arm({ match: /exportStreamPageQuery/, dropAt: 2, refuse: 2 });
      const r = await p.run(['export', queryId, '-o', file, '--page-size', '100']);
      expect(proxy.cut).toBe(3);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/The server is not answering .*; trying again until it is back\.\.\./);
      const rows = parse(readFileSync(file, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
      expect(rows.map((row) => row.id).sort()).toEqual([...expected].sort());
    } finally {
      await proxy.close();
    }
  });

  it('a write is not sent again: the user sees the failure', async () => {
    const u = await connectedUser(h.app, h.url);
    const proxy = await flakyProxy({ host: '127.0.0.1', port: Number(new URL(h.url).port) });
    try {
      const p = person();
      expect((await p.run(['login', '--server', proxy.url, '--email', u.email], `${PASSWORD}\n`)).code).toBe(0);
      proxy.arm({ match: /mutation /, dropAt: 1, refuse: 0 });
      const r = await p.run(['query', 'leads in Canada']);
      expect(r.code).toBe(2);
      expect(proxy.requests).toBe(1); // sent once, never again
      expect(await h.app.deps.prisma.query.count({ where: { userId: u.userId } })).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('crm segments', () => {
  it('adds, lists and deletes saved segments (asking first, or --yes without a terminal)', async () => {
    const p = await connectedPerson();
    expect((await p.run(['segments'])).stdout).toBe('ID\tName\tDescription\tCustomers\tCounted\tCreated\n');
    expect((await p.run(['segments', 'add', 'high-value customers in Germany'])).stdout).toBe('✔ Segment created — high-value customers in Germany\n');
    const [segment] = JSON.parse((await p.run(['segments', 'list', '--json'])).stdout);
    const short = segment.segmentId.slice(0, 8);
    const asked = await p.run(['segments', 'rm', short]);
    expect(asked).toMatchObject({
      code: 1,
      stderr: 'error: Are you sure you want to delete this segment? Nothing was done. Run it again with --yes to confirm without a prompt\n',
    });
    expect((await p.run(['segments', 'rm', short, '--yes'])).stdout).toBe('✔ Segment deleted — high-value customers in Germany\n');
    const empty = await p.run(['segments', 'add', '   ']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^error: Error creating segment: /);
  });
});

describe('administration', () => {
  it("refuses a normal user's admin commands", async () => {
    const p = await connectedPerson();
    const r = await p.run(['admin', 'users']);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: You need administrator privileges to do this\n' });
  });

  it('ban: the banned user\'s next call exits 1 with "Account suspended"; unban lets them back', async () => {
    const admin = await signedIn(ADMIN.email, ADMIN.password);
    const victim = await connectedPerson();
    expect((await victim.run(['usage'])).code).toBe(0);

    const asked = await admin.run(['admin', 'ban', victim.email, '--reason', 'Testing bans']);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('Nothing was done. Run it again with --yes');
    const missingReason = await admin.run(['admin', 'ban', victim.email, '--yes']);
    expect(missingReason).toMatchObject({ code: 1, stderr: 'error: --reason: a reason is required. See crm admin ban --help\n' });
    const ban = await admin.run(['admin', 'ban', victim.email, '--reason', 'Testing bans', '--yes']);
    expect(ban.code, ban.stderr).toBe(0);
    expect(ban.stdout).toBe('✔ User banned — User has been successfully banned from the platform\n');

    const next = await victim.run(['usage']);
    expect(next).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: Account suspended: Your account has been suspended: Testing bans. Please contact support for assistance.\n',
    });
    const relogin = await victim.run(['login', '--server', h.url, '--email', victim.email], `${PASSWORD}\n`);
    expect(relogin.stderr).toBe('error: Account suspended: Your account has been suspended: Testing bans. Please contact support for assistance.\n');

    const banned = await admin.run(['admin', 'users', '--banned']);
    const [header, ...rows] = banned.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(header).toEqual(['ID', 'User', 'Email', 'CRM', 'Industry', 'Tier', "Today's usage", 'Status']);
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(0, 3)).toEqual([victim.userId, 'Test User', victim.email]);
    expect(rows[0][7]).toMatch(/^Banned \d{4}-\d{2}-\d{2}T[\d:.]+Z: Testing bans$/);

    const unban = await admin.run(['admin', 'unban', victim.userId.slice(0, 8), '--yes']);
    expect(unban.stdout).toBe('✔ User unbanned — Test User can now access the platform\n');
    expect((await victim.run(['login', '--server', h.url, '--email', victim.email], `${PASSWORD}\n`)).code).toBe(0);
  });

  it('generate shows live progress from the subscription; the user then unlocks and downloads a Smart Segment', async () => {
    const admin = await signedIn(ADMIN.email, ADMIN.password);
    const p = await connectedPerson();
    const r = await admin.run(['admin', 'generate', '--user', p.email]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n');
    // one engine: the run is queued on the job workers and followed to its end (the note and the first
    // progress line may come in either order)
    const queued = lines.filter((l) => l.startsWith('Queued'));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatch(/^Queued on the job workers as run [0-9a-f-]{36}; following it \(Ctrl-C stops watching, not the run\)$/);
    const progress = lines.filter((l) => !l.startsWith('Queued'));
    for (const line of progress) expect(line).toMatch(/^Users \d+\/1 · segments \d+ · errors \d+$/);
    // The run's first event (nothing done yet) can only have come from the subscription.
    expect(progress[0]).toBe('Users 0/1 · segments 0 · errors 0');
    expect(progress[progress.length - 1]).toMatch(/^Users 1\/1 · segments \d+ · errors 0$/);
    const rows = await h.app.deps.prisma.dailyGeneratedSegment.findMany({ where: { userId: p.userId }, include: { preset: { include: { category: true } } } });
    expect(rows.length).toBeGreaterThan(0);
    expect(r.stdout).toBe(`✔ Segments Generated! — Successfully generated ${rows.length} ${rows.length === 1 ? "segment" : "segments"} for 1 user\n`);

    const list = await p.run(['smart']);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(rows.length + 1);
    expect(list.stdout).toMatch(/^ID\tSegment\tCategory\tCustomers\tImpact\tStatus\n/);
    const locked = rows.filter((s) => s.preset.category.isLocked && !s.hasError && s.customerCount > 0).sort((a, b) => b.customerCount - a.customerCount)[0];
    const short = locked.id.slice(0, 8);
    const download = await p.run(['smart', 'download', short]);
    expect(download).toMatchObject({ code: 1, stderr: `error: Download Failed: "${locked.preset.name}" is locked. Unlock it first: crm smart unlock ${short}\n` });
    const ask = await p.run(['smart', 'unlock', short]);
    expect(ask.code).toBe(1);
    expect(ask.stderr).toBe(
      `error: Unlock "${locked.preset.name}" (${locked.customerCount.toLocaleString('en-US')} customers)? Nothing was done. Run it again with --yes to confirm without a prompt\n`,
    );
    const unlock = await p.run(['smart', 'unlock', short, '--yes']);
    expect(unlock.stdout).toBe(`✔ Segment unlocked! — ${locked.preset.name}\n`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-smart-'));
    const got = await crm(['smart', 'download', short], { home: p.home, cwd: dir });
    expect(got.code, got.stderr).toBe(0);
    const date = rows[0].date.toISOString().slice(0, 10);
    const file = `smart-segment-customers-${locked.id}-${date}.csv`;
    expect(readdirSync(dir)).toEqual([file]);
    expect(parse(readFileSync(path.join(dir, file), 'utf8'), { columns: true, bom: true })).toHaveLength(locked.customerCount);
    expect(got.stderr).toContain(`Download Complete: Successfully downloaded ${locked.customerCount.toLocaleString('en-US')} customers to ${file}`);
  }, 120_000);

  it('stats, tiers, cleanup (dry run) and clear', async () => {
    const admin = await signedIn(ADMIN.email, ADMIN.password);
    const stats = JSON.parse((await admin.run(['admin', 'stats', '--json'])).stdout);
    expect(stats.totalUsers).toBe(await h.app.deps.prisma.user.count());
    expect((await admin.run(['admin', 'stats'])).stdout).toMatch(/^Total Users\s+\d+ all accounts\n/);
    const tiers = await admin.run(['admin', 'tiers']);
    expect(tiers.stdout).toMatch(/free\s+Free Plan\s+10 queries · 3 segments\s+\$0\.00\/mo · \$0\.00\/yr\s+Active/);
    const dry = await admin.run(['admin', 'cleanup', '--retention', '30', '--dry-run']);
    expect(dry.stdout).toMatch(/^Database Cleanup · retention 30 days\n {2}Total usage records\s+\d+\n/);
    expect(dry.stderr).toBe('Dry run: nothing was deleted.\n');
    const bad = await admin.run(['admin', 'cleanup', '--retention', '400']);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: --retention: must be a whole number from 1 to 365. See crm admin cleanup --help\n' });
    const anyone = await connectedUser(h.app, h.url);
    // Asks first, like every other destructive command.
    const asked = await admin.run(['admin', 'clear', anyone.email]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/^error: Delete the Smart Segments of Test User <.+> generated today\? Nothing was done\. Run it again with --yes/);
    const cleared = await admin.run(['admin', 'clear', anyone.email, '--yes']);
    expect(cleared.stdout).toBe('✔ Segments Cleared! — Successfully cleared 0 segments\n');
  });
});

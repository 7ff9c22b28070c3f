// `crm` in scripts and CI, as a subprocess: tokens from the environment or standard input, --server on
// every command, auth status and tokens, --json on actions with JSON errors and JSON numbers, lists
// read to the end, saved segments run, the CRM connected without the web app, completion and open.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../api/crm/hubspot-sandbox/index.js';
import { registerUser } from '../helpers/crm.js';
import { ADMIN, cliHarness, PASSWORD, type Person } from './harness.js';
import { BIN } from './run-crm.js';

const h = cliHarness({ contacts: 300 });

const savedToken = (p: Person) => JSON.parse(readFileSync(path.join(p.home, 'crm-assistant', 'config.json'), 'utf8')).logins[h.url].token as string;

describe('signing in with a token', () => {
  it('CRM_TOKEN and CRM_SERVER need no login; --server beats CRM_SERVER; a saved token never goes to another server', async () => {
    const laptop = await h.connectedPerson();
    const token = savedToken(laptop);
    const ci = h.person();
    const who = await ci.run(['whoami', '--json'], undefined, { env: { CRM_TOKEN: token, CRM_SERVER: h.url } });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ server: h.url, email: laptop.email });
    const flag = await ci.run(['usage', '--json', '--server', h.url], undefined, { env: { CRM_TOKEN: token, CRM_SERVER: 'http://127.0.0.1:9' } });
    expect(flag.code, flag.stderr).toBe(0);
    const status = await ci.run(['auth', 'status'], undefined, { env: { CRM_TOKEN: token, CRM_SERVER: h.url } });
    expect(status.stdout).toContain('From: the CRM_TOKEN environment variable');

    const elsewhere = await laptop.run(['usage', '--server', 'http://127.0.0.1:9']);
    expect(elsewhere).toMatchObject({ code: 1, stderr: 'error: Not signed in to http://127.0.0.1:9. Run crm login first (or set CRM_TOKEN)\n' });
    const badServer = await laptop.run(['usage', '--server', 'ftp://x']);
    expect(badServer).toMatchObject({ code: 1, stderr: 'error: --server: must be the server address, e.g. http://127.0.0.1:3000\n' });
    const refused = await laptop.run(['logout'], undefined, { env: { CRM_TOKEN: token } });
    expect(refused.stderr).toMatch(/^error: CRM_TOKEN is set: crm logout only forgets a token saved by crm login/);
  });

  it('tokens: create one for CI (printed once), sign in with it on stdin, see it in auth status, list and revoke', async () => {
    const laptop = await h.connectedPerson();
    const created = await laptop.run(['auth', 'tokens', 'create', '--name', 'GitHub Actions'], `${PASSWORD}\n`);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^crm_pat_\S+$/);
    expect(created.stdout).toBe(`${token}\n`);

    const ci = h.person();
    const wrong = await ci.run(['login', '--with-token', '--server', h.url], 'crm_pat_not-a-token\n');
    expect(wrong).toMatchObject({ code: 1, stderr: `error: Login failed: ${h.url} does not accept this token (mistyped, revoked or expired)\n` });
    const login = await ci.run(['login', '--with-token', '--server', h.url], `${token}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${h.url} as Test User <${laptop.email}>`);
    const status = await ci.run(['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      server: h.url,
      user: { email: laptop.email },
      token: { name: 'GitHub Actions', prefix: token.slice(0, 14) },
      source: 'config',
      configFile: path.join(ci.home, 'crm-assistant', 'config.json'),
    });
    expect((await ci.run(['auth', 'status'])).stdout).toContain(`Token: "GitHub Actions" (${token.slice(0, 14)}…)`);

    const list = JSON.parse((await laptop.run(['auth', 'tokens', '--json'])).stdout);
    expect(list.map((t: { name: string }) => t.name).sort()).toEqual(['GitHub Actions', expect.stringMatching(/^crm CLI on /)].sort());
    const asked = await laptop.run(['auth', 'tokens', 'revoke', token.slice(0, 14)]);
    expect(asked.stderr).toMatch(/^error: Revoke the token "GitHub Actions" \(crm_pat_\S+…\)\? Nothing was done/);
    const revoked = await laptop.run(['auth', 'tokens', 'revoke', token.slice(0, 14), '--yes', '--json']);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ name: 'GitHub Actions', revoked: true, wasCurrent: false });
    const after = await ci.run(['auth', 'status']);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/^error: Not signed in: the server does not accept the token/);
  });
});

describe('--json on actions', () => {
  it('segments add returns the new id; errors are JSON on stdout for --json callers, usage errors too', async () => {
    const p = await h.connectedPerson();
    const added = await p.run(['segments', 'add', 'leads', 'in', 'Canada', '--json']);
    expect(added.code, added.stderr).toBe(0);
    const segment = JSON.parse(added.stdout);
    expect(segment).toMatchObject({ description: 'leads in Canada', segmentId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const empty = await p.run(['segments', 'add', ' ', '--json']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('');
    expect(JSON.parse(empty.stdout)).toEqual({ error: { message: expect.stringMatching(/^Error creating segment: /), code: 'BAD_USER_INPUT', exitCode: 1 } });
    const usage = await p.run(['segments', 'rm', '--json']);
    expect(JSON.parse(usage.stdout)).toEqual({ error: { message: "missing required argument 'id'", code: 'USAGE', exitCode: 1 } });
    const gone = await p.run(['segments', 'rm', segment.segmentId.slice(0, 8), '--yes', '--json']);
    expect(JSON.parse(gone.stdout)).toEqual({ segmentId: segment.segmentId, description: 'leads in Canada', deleted: true });
  });

  it('segments edit renames and re-describes (checked by the parser); a refusal changes nothing', async () => {
    const p = await h.connectedPerson();
    const { segmentId } = JSON.parse((await p.run(['segments', 'add', 'leads in Canada', '--json'])).stdout);
    const renamed = await p.run(['segments', 'edit', segmentId.slice(0, 8), '--name', 'Canadian prospects', '--json']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ segmentId, name: 'Canadian prospects', description: 'leads in Canada' });
    const refused = await p.run(['segments', 'edit', segmentId.slice(0, 8), '--description', 'leads with pink hats', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/^Error updating segment: .*pink hats/) });
    const nothing = await p.run(['segments', 'edit', segmentId.slice(0, 8)]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/--name and\/or --description/);
    const described = await p.run(['segments', 'rename', segmentId.slice(0, 8), '--name', '', '--description', 'customers in Canada']);
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toContain('Segment updated — customers in Canada');
    const [row] = JSON.parse((await p.run(['segments', '--json'])).stdout);
    expect(row).toMatchObject({ segmentId, name: null, description: 'customers in Canada' });
  });

  it('segments run asks the description as a question', async () => {
    const p = await h.connectedPerson();
    const { segmentId } = JSON.parse((await p.run(['segments', 'add', 'leads in Canada', '--json'])).stdout);
    const r = await p.run(['segments', 'run', segmentId.slice(0, 8), '--json', '--limit', '2']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ query: { naturalLanguage: 'leads in Canada' }, hasError: false });
    expect(out.customers).toHaveLength(2);
    expect(JSON.parse((await p.run(['history', '--json'])).stdout)).toHaveLength(1);
  });

  it('admin actions answer JSON; numbers are JSON numbers', async () => {
    const admin = await h.signedIn(ADMIN.email, ADMIN.password);
    const victim = await h.connectedPerson();
    const ban = await admin.run(['admin', 'ban', victim.email, '--reason', 'Testing', '--yes', '--json']);
    expect(JSON.parse(ban.stdout)).toMatchObject({ userId: victim.userId, email: victim.email, isBanned: true, banReason: 'Testing' });
    const unban = await admin.run(['admin', 'unban', victim.email, '--yes', '--json']);
    expect(JSON.parse(unban.stdout)).toMatchObject({ userId: victim.userId, isBanned: false });
    const tiers = JSON.parse((await admin.run(['admin', 'tiers', '--json'])).stdout);
    expect(tiers.find((t: { name: string }) => t.name === 'free')).toMatchObject({ priceMonthly: 0, priceYearly: 0 });
    const p = await h.connectedPerson(); // the victim's tokens ended with the ban
    const generated = await admin.run(['admin', 'generate', '--user', p.email, '--json']);
    expect(generated.code, generated.stderr).toBe(0);
    expect(JSON.parse(generated.stdout)).toMatchObject({ users: 1, completedUsers: 1, failedCount: 0 });
    const smart = JSON.parse((await p.run(['smart', '--json'])).stdout);
    expect(smart.length).toBeGreaterThan(0);
    for (const s of smart) expect(typeof s.impactScore).toBe('number');
    const free = smart.find((s: { preset: { category: { isLocked: boolean } }; hasError: boolean }) => !s.preset.category.isLocked && !s.hasError) ?? smart[0];
    const unlock = await p.run(['smart', 'unlock', free.segmentId.slice(0, 8), '--yes', '--json']);
    expect(JSON.parse(unlock.stdout)).toMatchObject({ segmentId: free.segmentId, isUnlocked: true, usage: { smartSegmentsUsed: 1 } });
    const cleared = await admin.run(['admin', 'clear', p.email, '--yes', '--json']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ email: p.email, deletedCount: smart.length });
  }, 120_000);
});

describe('lists', () => {
  it('are read to the end (no silent stop at 100), or to --limit with a note; --json gives what was asked for', async () => {
    const p = await h.connectedPerson();
    await h.app.deps.prisma.segment.createMany({ data: Array.from({ length: 130 }, (_, i) => ({ userId: p.userId, description: `segment ${i}` })) });
    const all = await p.run(['segments', '--json']);
    expect(JSON.parse(all.stdout)).toHaveLength(130);
    expect(all.stderr).toBe('');
    const cut = await p.run(['segments', '--limit', '5']);
    expect(cut.stdout.trimEnd().split('\n')).toHaveLength(6); // header and 5 rows
    expect(cut.stderr).toBe('Showing 5 of 130 saved segments (--limit 5)\n');
    expect(JSON.parse((await p.run(['segments', '--json', '--limit', '120'])).stdout)).toHaveLength(120);
    // Full ids when piped; and an id beyond the first page is found.
    const rows = (await p.run(['segments'])).stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(130);
    const last = rows[rows.length - 1].split('\t')[0];
    expect(last).toMatch(/^[0-9a-f-]{36}$/);
    expect((await p.run(['segments', 'rm', last.slice(0, 8), '--yes'])).code).toBe(0);
  });
});

describe('questions', () => {
  it('several words are one question', async () => {
    const p = await h.connectedPerson();
    const r = await p.run(['query', 'leads', 'in', 'Canada', '--json', '--limit', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).query.naturalLanguage).toBe('leads in Canada');
  });
});

describe('crm crm: the CRM connection without the web app', () => {
  it('status, connect with a token (checked by the CRM), disconnect asking first', async () => {
    const u = await registerUser(h.url);
    const p = await h.signedIn(u.email);
    expect(JSON.parse((await p.run(['crm', '--json'])).stdout)).toMatchObject({ connected: false, crmType: 'hubspot' });
    const plain = await p.run(['crm', 'status']);
    expect(plain.stdout).toBe('○ HubSpot not connected\n');
    const empty = await p.run(['crm', 'connect', '--token', '  ']);
    expect(empty).toMatchObject({ code: 1, stderr: 'error: Token required: Please enter your CRM API token.\n' });
    const bad = await p.run(['crm', 'connect', '--token', 'pat-na1-00000000-0000-0000-0000-000000000000']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: Failed to save token: /);
    const ok = await p.run(['crm', 'connect'], `${DEFAULT_SANDBOX_CREDENTIALS.privateAppToken}\n`);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^✔ CRM Token saved — Your CRM is connected\.\n✔ HubSpot connected via API token · account \d+\n/);
    expect((await p.run(['query', 'leads', '--json', '--limit', '1'])).code).toBe(0);
    const asked = await p.run(['crm', 'disconnect']);
    expect(asked.stderr).toMatch(/^error: Disconnect HubSpot\? Nothing was done/);
    const gone = await p.run(['crm', 'disconnect', '--yes']);
    expect(gone.stdout).toBe('✔ Disconnected — Your CRM is no longer connected.\n');
    expect(JSON.parse((await p.run(['crm', '--json'])).stdout)).toMatchObject({ connected: false });
  });
});

describe('crm open', () => {
  it('prints the address of a screen without a terminal', async () => {
    const p = await h.connectedPerson();
    expect((await p.run(['open'])).stdout).toBe(`${h.url}/\n`);
    expect((await p.run(['open', 'smart'])).stdout).toBe(`${h.url}/smart-segments\n`);
    await p.run(['query', 'leads', '--json', '--limit', '1']);
    const [{ queryId }] = JSON.parse((await p.run(['history', '--json'])).stdout);
    const q = await p.run(['open', 'query', queryId.slice(0, 8)]);
    expect(new URL(q.stdout.trim()).searchParams.get('query')).toBe(Buffer.from(`CustomerQuery:${queryId}`).toString('base64'));
    const bad = await p.run(['open', 'billing']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: command-argument value 'billing' is invalid for argument 'screen'/);
  });
});

describe('crm completion', () => {
  const script = (shell: string) => execFileSync(process.execPath, [BIN, 'completion', shell], { encoding: 'utf8' });

  it('bash completes commands, subcommands, options and file names', () => {
    const file = path.join(h.person().home, 'crm.bash');
    writeFileSync(file, script('bash'));
    const complete = (...words: string[]) => {
      const cword = words.length - 1;
      const cmd = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${cword}; _crm; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return spawnSync('bash', ['-c', cmd], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    };
    expect(complete('crm', 'se')).toEqual(['segments']);
    expect(complete('crm', 'segments', '')).toEqual(expect.arrayContaining(['list', 'add', 'run', 'rm', 'delete']));
    expect(complete('crm', 'auth', 'tokens', 're')).toEqual(['revoke']);
    expect(complete('crm', 'export', 'abc', '--f')).toEqual(['--force']);
    expect(complete('crm', 'open', 'sm')).toEqual(['smart']);
    expect(complete('crm', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('crm', 'query', '--se')).toEqual(['--server']);
    expect(complete('crm', 'export', 'x', '-o', path.join(path.dirname(file), 'crm.b'))).toEqual([file]);
  });

  it.skipIf(spawnSync('fish', ['--version']).error)('fish completes from the same model', () => {
    const complete = (line: string) =>
      spawnSync('fish', ['-c', `${process.execPath} ${BIN} completion fish | source; complete -C '${line}'`], { encoding: 'utf8' }).stdout.split('\n').map((l) => l.split('\t')[0]).filter(Boolean);
    expect(complete('crm se')).toEqual(['segments']);
    expect(complete('crm smart ')).toEqual(expect.arrayContaining(['list', 'unlock', 'download']));
    expect(complete('crm export x --pa')).toEqual(['--page-size']);
  });

  it.skipIf(spawnSync('zsh', ['--version']).error)('zsh: the script is valid zsh', () => {
    const r = spawnSync('zsh', ['-n'], { input: script('zsh'), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
});

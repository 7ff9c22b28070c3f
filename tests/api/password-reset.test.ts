// "Forgot password?" (api/services/password-reset.ts): the same answer for every address, a one-time
// expiring link by mail (the outbox without SMTP_URL, a real SMTP server with it), hashed at rest,
// rate-limited, and the administrator's "send a reset link".
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/wait.js';
import { ADMIN, Client, DEMO, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let clock = Date.now();
beforeAll(async () => {
  t = await startTestApp({ PASSWORD_RESET_MAX_PER_EMAIL: '3', PASSWORD_RESET_TTL_MINUTES: '30' }, { now: () => new Date(clock) });
});
afterAll(async () => {
  await t?.close();
});

const outbox = () => t.app.deps.mailer!.outbox!;
async function mailTo(email: string, count = 1) {
  await until(() => outbox().filter((m) => m.to === email).length >= count, { timeoutMs: 10_000 });
  return outbox().find((m) => m.to === email)!;
}
const tokenOf = (text: string) => /\/reset-password#token=([\w-]+)/.exec(text)![1];

async function newUser() {
  const email = `r${Math.random().toString(36).slice(2, 9)}@example.com`;
  const c = new Client(t.url);
  const r = await c.post('/api/auth/register', { firstName: 'Ada', lastName: 'L', email, crmType: 'hubspot', industry: 'telecom', password: 'first-pass-123', confirmPassword: 'first-pass-123' });
  expect(r.status).toBe(201);
  return { email, client: c };
}

describe('forgot password', () => {
  it('answers the same for an account and for an unknown address; only the account gets mail', async () => {
    const { email } = await newUser();
    const known = await new Client(t.url).post('/api/auth/forgot-password', { email: email.toUpperCase() });
    const unknown = await new Client(t.url).post('/api/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.json).toEqual(unknown.json);
    expect(known.json.message).toBe("If an account exists for that email, we've sent it a link to reset the password. The link works once and expires in 30 minutes.");
    const mail = await mailTo(email);
    expect(mail.subject).toBe('Reset your CRM Assistant password');
    expect(mail.text).toContain(`${t.url}/reset-password#token=`);
    expect(outbox().some((m) => m.to === 'nobody-here@example.com')).toBe(false);
    // Hashed at rest: the token is nowhere in the table.
    const token = tokenOf(mail.text);
    const rows = await t.app.deps.prisma.passwordResetToken.findMany({ where: { user: { email } } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('the link sets a new password once, ends the sessions, and a second use fails', async () => {
    const { email, client } = await newUser();
    await new Client(t.url).gql('mutation($e: String!) { requestPasswordReset(input: { email: $e }) { message } }', { e: email });
    const token = tokenOf((await mailTo(email)).text);
    const weak = await new Client(t.url).post('/api/auth/reset-password', { token, newPassword: 'x', confirmPassword: 'x' });
    expect(weak.status).toBe(400);
    expect(weak.json.fields.newPassword).toBe('Password must be at least 8 characters');
    const done = await new Client(t.url).gql('mutation($i: ResetPasswordInput!) { resetPassword(input: $i) { email } }', {
      i: { token, newPassword: 'second-pass-456', confirmPassword: 'second-pass-456' },
    });
    expect(done.data?.resetPassword.email).toBe(email);
    expect((await client.get('/api/auth/status')).json.authenticated).toBe(false); // the old session ended
    expect((await new Client(t.url).post('/api/auth/login', { email, password: 'first-pass-123' })).status).toBe(401);
    expect((await new Client(t.url).post('/api/auth/login', { email, password: 'second-pass-456' })).status).toBe(200);
    const again = await new Client(t.url).post('/api/auth/reset-password', { token, newPassword: 'third-pass-789', confirmPassword: 'third-pass-789' });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('This password reset link is invalid, already used or expired. Ask for a new one.');
  });

  it('a link expires, and a newer link ends the older one', async () => {
    const { email } = await newUser();
    await new Client(t.url).post('/api/auth/forgot-password', { email });
    const first = tokenOf((await mailTo(email)).text);
    await new Client(t.url).post('/api/auth/forgot-password', { email });
    await mailTo(email, 2);
    const second = tokenOf(outbox().find((m) => m.to === email)!.text);
    expect(second).not.toBe(first);
    const body = (token: string) => ({ token, newPassword: 'second-pass-456', confirmPassword: 'second-pass-456' });
    expect((await new Client(t.url).post('/api/auth/reset-password', body(first))).status).toBe(400);
    clock += 31 * 60_000;
    try {
      expect((await new Client(t.url).post('/api/auth/reset-password', body(second))).status).toBe(400);
    } finally {
      clock -= 31 * 60_000;
    }
  });

  it('is rate-limited per address asked about, known or not, without telling which', async () => {
    const { email } = await newUser();
    for (const e of [email, 'ghost@example.com']) {
      for (let i = 0; i < 3; i++) expect((await new Client(t.url).post('/api/auth/forgot-password', { email: e })).status).toBe(202);
      const refused = await new Client(t.url).post('/api/auth/forgot-password', { email: e });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toMatch(/^Too many password reset requests\. Try again in \d+ minute\(s\)\.$/);
    }
  });

  it('an administrator sends a link (audited) and reads the outbox; others may not', async () => {
    const { email } = await newUser();
    const admin = new Client(t.url);
    await admin.login(ADMIN);
    const user = await t.app.deps.prisma.user.findUniqueOrThrow({ where: { email } });
    const sent = await admin.post(`/api/admin/users/${user.id}/password-reset`);
    expect(sent.status).toBe(200);
    expect(sent.json.message).toBe(`A password reset link was sent to ${email}`);
    expect((await mailTo(email)).text).toContain('An administrator of CRM Assistant sent you this link');
    const audit = await t.app.deps.prisma.auditLog.findFirst({ where: { action: 'user.password_reset_sent', targetId: user.id } });
    expect(audit).not.toBeNull();
    const page = await admin.get('/api/admin/outbox', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`To ${email}`);
    expect(page.text).toMatch(/<a href="http:\/\/[^"]+\/reset-password#token=[\w-]+">/);
    const demo = new Client(t.url);
    await demo.login(DEMO);
    expect((await demo.get('/api/admin/outbox')).status).toBe(403);
  });
});

describe('with SMTP_URL', () => {
  it('sends the link through the SMTP server, and keeps no outbox', async () => {
    const received: { to: string; body: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let body = '';
        stream.on('data', (d: Buffer) => (body += d.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const port = (smtp.server.address() as AddressInfo).port;
    const s = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Support <support@example.com>' });
    try {
      expect(s.app.deps.mailer!.outbox).toBeNull();
      const r = await new Client(s.url).post('/api/auth/forgot-password', { email: DEMO.email });
      expect(r.status).toBe(202);
      await until(() => received.length > 0, { timeoutMs: 10_000 });
      expect(received[0].to).toBe(DEMO.email);
      expect(received[0].body).toContain('From: Support <support@example.com>');
      expect(received[0].body.replace(/=\r?\n/g, '')).toMatch(/\/reset-password#token=3D[\w-]+|\/reset-password#token=[\w-]+/);
    } finally {
      await s.close();
      smtp.close();
    }
  });
});

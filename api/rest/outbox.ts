// The outbox (administrators only): the mail this process would have sent without SMTP_URL, newest
// first (services/mailer.ts), as a page in a browser and as JSON otherwise. 404 when the outbox is
// off (SMTP_URL set, production, or MAIL_OUTBOX=false). Administrators only: a reset link there
// opens the account it was sent to.
import { Hono } from 'hono';
import { notFound } from '../errors.js';
import { requireAdmin } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import type { SentMail } from '../services/mailer.js';

export const outboxRoutes = new Hono<AppEnv>();

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** Text with its http(s) links made clickable (after escaping, so nothing else becomes markup). */
const linked = (text: string) => escape(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

function page(messages: readonly SentMail[]): string {
  const items = messages.length
    ? messages
        .map(
          (m) => `<article><h2>${escape(m.subject)}</h2><p class="meta">To ${escape(m.to)} · from ${escape(m.from)} · <time datetime="${m.sentAt.toISOString()}">${m.sentAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</time></p><pre>${linked(m.text)}</pre></article>`,
        )
        .join('\n')
    : '<p>No mail yet. A "Forgot password?" request or a reset link sent from the Admin Console appears here.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox · CRM Assistant</title></head>
<body><main><h1>Outbox</h1><p>Mail this server would have sent (no SMTP_URL is set), newest first: the last 50 of this process.</p>
${items}</main></body></html>`;
}

outboxRoutes.get('/', (c) => {
  const ctx = c.var.ctx;
  requireAdmin(ctx);
  const outbox = ctx.deps.mailer?.outbox;
  if (!outbox) throw notFound('The outbox is off: mail is sent through SMTP_URL (or MAIL_OUTBOX=false)');
  if ((c.req.header('accept') ?? '').includes('text/html')) {
    c.header('Cache-Control', 'no-store');
    return c.html(page(outbox));
  }
  return c.json({ messages: outbox });
});

// Outgoing mail through nodemailer. With SMTP_URL (smtp:// or smtps://, user and password in the URL)
// messages go to that server. Without it nothing is delivered: each message is written to the log
// (its text too, outside production: a developer on the embedded default reads the reset link
// there), and kept in the outbox, the last OUTBOX_SIZE messages of this process shown by
// /api/dev/outbox (config.mail.outbox: on by default without SMTP_URL outside production).
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail extends MailMessage {
  id: string;
  from: string;
  sentAt: Date;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The messages kept for the outbox page, newest first; null when the outbox is off. */
  readonly outbox: readonly SentMail[] | null;
  close(): void;
}

export const OUTBOX_SIZE = 50;

export function createMailer(config: Pick<Config, 'env' | 'mail'>, logger: Logger): Mailer {
  const { smtpUrl, from, outbox: keep } = config.mail;
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ jsonTransport: true });
  const outbox: SentMail[] = [];
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
      const sent: SentMail = { id: randomUUID(), from, sentAt: new Date(), ...message };
      if (keep) {
        outbox.unshift(sent);
        outbox.length = Math.min(outbox.length, OUTBOX_SIZE);
      }
      if (smtpUrl) logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      else if (config.env === 'production') logger.warn({ to: message.to, subject: message.subject }, 'mail not sent: SMTP_URL is not set');
      else logger.info({ to: message.to, subject: message.subject, text: message.text }, 'mail (not sent: no SMTP_URL; also at /api/dev/outbox)');
    },
    get outbox() {
      return keep ? outbox : null;
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Free mail providers, for "personal emails" / "private addresses" / "free email accounts": Kikobeats'
 * `email-providers` list (8,700+ domains, kept up to date from public provider lists) rather than one of our own.
 * With the CRM's values the parser asks for the CRM's domains that are on it; without them, for the largest
 * providers below (a question then says which ones it searched).
 */
import providers from 'email-providers/all.json' with { type: 'json' };

export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set(providers as string[]);

/** The largest consumer providers: the reading when the CRM's own domains are not known. */
export const MAJOR_FREE_MAIL = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.de', 'gmx.net', 'web.de', 'live.com', 'msn.com', 'mail.ru', 'yandex.ru'];

/** Adjectives that make an e-mail noun mean a free provider's address. */
export const PERSONAL_MAIL_WORDS = new Set(['personal', 'private', 'free', 'freemail', 'webmail', 'consumer', 'non-business', 'nonbusiness', 'non-work', 'nonwork']);

/** Adjectives that make an e-mail noun mean any address but a free provider's ("work emails"). */
export const WORK_MAIL_WORDS = new Set(['work', 'business', 'corporate', 'professional', 'biz', 'b2b', 'office', 'company']);

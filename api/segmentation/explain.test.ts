import { describe, expect, it } from 'vitest';
import type { Segment } from './ast.js';
import { buildAssistantMessage, explainSegment, formatMoney } from './explain.js';
import { parseSegment } from './parser/index.js';

const opts = { now: '2026-06-15T12:00:00Z', timeZone: 'UTC' };
const explain = (q: string) => explainSegment(parseSegment(q, opts).segment, opts);

describe('explainSegment', () => {
  it('explains the spec example', () => {
    expect(explain('customers in Europe who bought in the last 30 days with lifetime value over $5k')).toBe(
      'Customers · in Europe (54 countries) · last purchase within the last 30 days · lifetime value over $5,000',
    );
  });

  it.each([
    ['leads or subscribers in Canada', 'Leads and subscribers · in Canada'],
    ['paying customers in the UK', 'Customers (stage: customer) · in the United Kingdom'],
    ['leads in Canada or subscribers in the US', 'Customers · (leads in Canada) or (subscribers in the United States)'],
    ['customers with lifetime value between $500 and $2,000', 'Customers · lifetime value between $500 and $2,000'],
    ['customers with LTV 5000+', 'Customers · lifetime value of at least $5,000'],
    ['contacts whose last purchase was under $1,250.50', 'Customers · last purchase amount under $1,251'],
    ["customers who haven't bought in 6 months", 'Customers · last purchase more than 6 months ago (past buyers only)'],
    ['customers with no purchases in the last 90 days', 'Customers · last purchase more than 90 days ago (past buyers only)'],
    ['customers with no purchases in 2025', 'Customers · no purchase between Jan 1, 2025 and Dec 31, 2025 (including contacts who never bought)'],
    ['customers inactive for 90+ days', 'Customers · last purchase more than 90 days ago (past buyers only)'],
    ['customers who bought last month', 'Customers · last purchase last month'],
    ['customers who bought this quarter', 'Customers · last purchase this quarter'],
    ['customers who bought yesterday', 'Customers · last purchase yesterday'],
    ['customers who bought before 2024', 'Customers · last purchase before Jan 1, 2024 (past buyers only)'],
    ['customers who bought since Jan 5, 2025', 'Customers · last purchase on or after Jan 5, 2025'],
    ['customers who bought between January 1 and March 31', 'Customers · last purchase between Jan 1, 2026 and Mar 31, 2026'],
    ['leads created in the last 7 days', 'Leads · created within the last 7 days'],
    ['customers not in Europe excluding leads', 'Customers · not in Europe (54 countries) · excluding leads'],
    ['customers in North America', 'Customers · in North America (United States, Canada, Greenland, Bermuda, Saint Pierre and Miquelon)'],
    ['MQLs in Germany', 'Marketing qualified leads (MQLs) · in Germany'],
    ['evangelists or SQLs', 'Evangelists and sales qualified leads (SQLs)'],
    ['customers who never purchased', 'Customers · never purchased'],
    ['gmail users', 'Customers · email at gmail.com'],
    ['contacts with a .edu email', 'Customers · email ending in .edu'],
    ['contacts from Acme', 'Customers · company contains "Acme"'],
    ['contacts named Sarah', 'Customers · named "Sarah"'],
    ['contacts without a company', 'Customers · no company'],
    ['contacts with no lifecycle stage', 'Contacts without a lifecycle stage'],
    ['customers in the EU', 'Customers · in one of 27 countries (Austria, Belgium, Bulgaria, …)'],
    ['top 10 customers by lifetime value', 'Customers · top 10 by lifetime value'],
    ['most recent buyers', 'Customers · 10 most recent buyers'],
    ['leads sorted by last name', 'Leads · sorted by last name (A to Z)'],
    ['show 25 leads', 'Leads · first 25'],
  ])('%s', (q, text) => {
    expect(explain(q)).toBe(text);
  });

  it('formats dates in the time zone', () => {
    const s: Segment = { version: 1, where: { field: 'createdAt', op: 'lt', value: { kind: 'anchor', unit: 'day', offset: 0 } } };
    expect(explainSegment(s, { now: '2026-06-15T02:00:00Z', timeZone: 'America/Los_Angeles' })).toBe('Customers · created before Jun 14, 2026');
  });

  it('formats money with thousands separators and no decimals', () => {
    expect(formatMoney(5000)).toBe('$5,000');
    expect(formatMoney(1_500_000)).toBe('$1,500,000');
    expect(formatMoney(99.5)).toBe('$100');
  });

  it('explains nested negations', () => {
    const s: Segment = {
      version: 1,
      where: { not: { or: [{ field: 'country', op: 'eq', value: 'Germany' }, { field: 'lifetimeValue', op: 'gt', value: 100 }] } },
    };
    expect(explainSegment(s, opts)).toBe('Customers · not (in Germany or lifetime value over $100)');
  });
});

describe('buildAssistantMessage', () => {
  it('states the count, the explanation and what was ignored', () => {
    const r = parseSegment('customers in Europe who like pizza', opts);
    expect(buildAssistantMessage({ segment: r.segment, count: 42, unrecognized: r.unrecognized, notes: r.notes, ...opts })).toBe(
      "Found 42 contacts: in Europe (54 countries). I ignored: 'like pizza'.",
    );
  });

  it('handles one, none, thousands and notes', () => {
    const seg = parseSegment('leads in Canada', opts).segment;
    expect(buildAssistantMessage({ segment: seg, count: 1, ...opts })).toBe('Found 1 lead: in Canada.');
    expect(buildAssistantMessage({ segment: seg, count: 2060, ...opts })).toBe('Found 2,060 leads: in Canada.');
    expect(buildAssistantMessage({ segment: seg, count: 0, ...opts })).toBe('I found no leads matching: in Canada.');
    expect(buildAssistantMessage({ segment: { version: 1 }, count: 12345, ...opts })).toBe('Found 12,345 contacts: all of your contacts.');
    const typo = parseSegment('custmers in Germny', opts);
    expect(buildAssistantMessage({ segment: typo.segment, count: 3, notes: typo.notes, ...opts })).toBe(
      'Found 3 contacts: in Germany. Read "custmers" as "customers". Read "Germny" as "Germany".',
    );
  });

  it('names what was found: the one stage asked for, else contacts', () => {
    const msg = (q: string, count: number) => buildAssistantMessage({ segment: parseSegment(q, opts).segment, count, ...opts });
    expect(msg('leads', 2060)).toBe('Found 2,060 leads.');
    expect(msg('contacts in Germany', 82)).toBe('Found 82 contacts: in Germany.');
    expect(msg('paying customers in Spain', 5)).toBe('Found 5 customers (stage: customer): in Spain.');
    expect(msg('MQLs in Germany', 7)).toBe('Found 7 MQLs: in Germany.');
    expect(msg('leads or subscribers', 3)).toBe('Found 3 contacts: Leads and subscribers.');
  });
});

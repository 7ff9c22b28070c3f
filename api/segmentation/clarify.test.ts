// When a parsed question may run at once, and what is asked otherwise (issue 23).
import { describe, expect, it } from 'vitest';
import { clarificationFor, findContradictions } from './clarify.js';
import { normalizeSegment } from './normalize.js';
import { parseSegment } from './parser/index.js';
import { CrmVocabulary } from './parser/vocabulary.js';
import { sandboxVocabulary } from './testing/sandbox-vocabulary.js';

const NOW = '2026-06-15T12:00:00Z';
const opts = { now: NOW, timeZone: 'UTC' };
const ask = (q: string, o: Parameters<typeof parseSegment>[1] = opts) => clarificationFor(parseSegment(q, o), opts);

describe('clarificationFor', () => {
  it('runs a question understood whole at once', () => {
    for (const q of ['customers in Europe who bought in the last 30 days with lifetime value over $5k', 'top 10 customers by lifetime value', 'leads in Canada']) {
      expect(ask(q), q).toBeUndefined();
    }
  });

  it('asks about words left unused, with what was understood and "search with what I understood"', () => {
    const c = ask('leads in Germany with open tickets')!;
    expect(c.explanation).toBe('Leads · in Germany');
    expect(c.notUnderstood).toEqual(['open tickets']);
    expect(c.issues).toEqual([{ kind: 'not-understood', phrase: 'open tickets', message: 'I didn\'t understand "open tickets".' }]);
    expect(c.choices).toEqual([expect.objectContaining({ label: 'Search with what I understood', asUnderstood: true, segment: c.understood, explanation: 'Leads · in Germany' })]);
    expect(c.message).toBe('I understood: Leads · in Germany. I didn\'t understand "open tickets". Nothing was run and no query was used: pick one of the choices, or rephrase the question.');
  });

  it.each([
    ['subscribers who are also paying customers in ohio', /one lifecycle stage/],
    ['leads in Munich, France', /Munich is not in France/],
    ['customers in Texas and Germany', /Texas is not in Germany/],
    ['customers in texas who live in georgia', /one state/],
    ['customers who never bought with lifetime value over $500', /"never bought" and "lifetime value over \$500" cannot both hold/],
    ['customers with lifetime value over $5,000 and under $1,000', /cannot both hold/],
    ['customers who churned last month', /cannot both hold/],
  ])('asks about a contradiction: %s', (q, message) => {
    const c = ask(q)!;
    expect(c, q).toBeDefined();
    expect(c.issues.some((i) => i.kind === 'contradiction' && message.test(i.message)), JSON.stringify(c.issues)).toBe(true);
  });

  it('offers the readings of a contradiction: either (one list), or each alone', () => {
    const c = ask('subscribers who are also paying customers in ohio')!;
    const runs = c.choices.map((ch) => ch.explanation);
    expect(runs.slice(0, 3)).toEqual(['Subscribers and customers (stage: customer) · in Ohio', 'Subscribers · in Ohio', 'Customers (stage: customer) · in Ohio']);
    expect(c.choices[0].segment.where).toEqual({ and: [{ field: 'state', op: 'eq', value: 'Ohio' }, { field: 'lifecycleStage', op: 'in', values: ['subscriber', 'customer'] }] });
  });

  it('finds contradictions inside each branch of an OR too', () => {
    const found = findContradictions({ version: 1, where: { or: [{ field: 'country', op: 'eq', value: 'France' }, { and: [{ field: 'city', op: 'eq', value: 'Munich' }, { field: 'country', op: 'eq', value: 'Spain' }] }] } }, opts);
    expect(found.map((f) => f.message)).toEqual(['Munich is not in Spain']);
  });

  it("offers the CRM's closest values for one it does not hold", () => {
    const v = { ...opts, vocabulary: sandboxVocabulary(NOW) };
    const c = ask('contacts in lausane', v)!;
    expect(c.issues[0]).toMatchObject({ kind: 'unknown-value' });
    expect(c.choices[0]).toMatchObject({ label: 'city Lausanne' });
    expect(c.choices[0].segment.where).toEqual({ field: 'city', op: 'eq', value: 'Lausanne' });
    const typo = ask('people from Turner Oudtoor Group', v)!;
    expect(typo.choices.map((ch) => ch.label)).toContain('company Turner Outdoor Group');
  });

  it('asks which place is meant when the CRM holds the words as two fields', () => {
    const v = { ...opts, vocabulary: CrmVocabulary.from({ city: ['Victoria', 'Toronto'], state: ['Victoria', 'Ontario'], country: ['Canada', 'Australia'] }) };
    const c = ask('contacts in victoria', v)!;
    expect(c.issues[0]).toMatchObject({ kind: 'ambiguous', phrase: 'in victoria' });
    const segments = c.choices.map((ch) => JSON.stringify(normalizeSegment(ch.segment, opts)));
    expect(segments).toContain(JSON.stringify(normalizeSegment({ version: 1, where: { field: 'city', op: 'eq', value: 'Victoria' } }, opts)));
    expect(segments).toContain(JSON.stringify(normalizeSegment({ version: 1, where: { field: 'state', op: 'eq', value: 'Victoria' } }, opts)));
  });

  it('asks whether the subject of an OR of clauses carries over', () => {
    const c = ask('leads in spain, or with ltv over 20k')!;
    expect(c.issues[0]).toMatchObject({ kind: 'ambiguous' });
    expect(c.choices[0].explanation).toBe('Leads · in Spain or lifetime value over $20,000');
    expect(c.choices.at(-1)!.explanation).toBe('Customers · (leads in Spain) or lifetime value over $20,000');
  });
});

describe('CrmVocabulary', () => {
  const v = CrmVocabulary.from({ city: ['Zürich', 'Zurich', 'Kraków'], company: ['Initech LLC'], emailDomain: ['initech.com', 'foo.com.au'] });
  it("keeps every spelling of a value the CRM holds, case and accents ignored", () => {
    expect(v.spellingsOf('city', 'ZURICH')).toEqual(['Zürich', 'Zurich']);
    expect(v.spellingsOf('city', 'krakow')).toEqual(['Kraków']);
    expect(v.spellingsOf('city', 'Gdansk')).toBeUndefined();
  });
  it('searches a place in all the spellings the CRM holds', () => {
    const r = parseSegment('contacts in zurich', { ...opts, vocabulary: v });
    expect(r.segment.where).toEqual({ field: 'city', op: 'in', values: ['Zürich', 'Zurich'] });
  });
  it('knows domains and suffixes, and the closest values of a typo', () => {
    expect(v.hasDomain('initech.com')).toBe(true);
    expect(v.hasDomain('.com.au')).toBe(true);
    expect(v.hasDomain('.co.uk')).toBe(false);
    expect(v.closest('emailDomain', 'intech.com')).toEqual(['initech.com']);
    expect(v.closest('company', 'Initek')).toEqual(['Initech']);
  });
  it('reads a company of the CRM before a noun ("initech contacts")', () => {
    const r = parseSegment('initech contacts in london', { ...opts, vocabulary: v });
    expect(r.segment.where).toEqual({ and: [{ field: 'company', op: 'contains', value: 'Initech' }, { field: 'city', op: 'eq', value: 'London' }] });
  });
});

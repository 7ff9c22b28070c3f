// The example questions are real questions: the parser understands each of them whole (nothing left over,
// nothing to ask about), with the CRM's own country and company in them.
import { describe, expect, it } from 'vitest';
import { clarificationFor, createParser, CrmVocabulary } from '../api/segmentation/index.js';
import { exampleQuestions } from './example-questions.js';

const parser = createParser();
const now = new Date('2026-06-15T12:00:00Z');

describe('exampleQuestions', () => {
  it('offers place and stage, purchase recency, lifetime value and a company, from the CRM', () => {
    expect(exampleQuestions({ countries: ['Canada', 'Germany'], companies: ['Nguyen Consulting'] })).toEqual([
      'leads in Canada',
      'customers who bought in the last 30 days',
      'customers with lifetime value over $5k',
      'contacts at Nguyen Consulting',
      'customers in Europe who have not bought in 90 days',
    ]);
    // before the CRM's values are known (or without a CRM): no company to name
    expect(exampleQuestions(null)).toHaveLength(4);
    expect(exampleQuestions(null)[0]).toBe('leads in Germany');
  });

  it.each([
    ['without CRM values', null],
    ['with CRM values', { countries: ['United States'], companies: ['Acme Corporation'] }],
  ])('are understood whole by the parser (%s)', async (_label, lists) => {
    const vocabulary = lists ? CrmVocabulary.from({ country: lists.countries, company: lists.companies }) : undefined;
    for (const q of exampleQuestions(lists)) {
      const r = await parser.parse(q, { now, timeZone: 'UTC', vocabulary });
      expect([q, r.unrecognized, clarificationFor(r, { now, timeZone: 'UTC' })]).toEqual([q, [], undefined]);
      expect(r.segment.where, q).toBeDefined();
    }
  });
});

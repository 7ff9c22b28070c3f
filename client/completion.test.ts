import { describe, expect, it } from 'vitest';
import { acceptCompletion, buildTerms, completeAt, endsWithTerm, fragmentsAt, stagePlural, type Term } from './completion.js';

const FIELDS = [
  { field: 'lifecycleStage', label: 'Lifecycle stage', kind: 'stage', options: ['subscriber', 'lead', 'opportunity', 'customer', 'unknown'] },
  { field: 'region', label: 'Region', kind: 'region', options: ['North America', 'Europe'] },
  { field: 'country', label: 'Country', kind: 'text' },
  { field: 'lifetimeValue', label: 'Lifetime value', kind: 'money' },
  { field: 'lastPurchaseDate', label: 'Last purchase', kind: 'date' },
];
const TERMS = buildTerms(FIELDS, {
  countries: ['Germany', 'Georgia', 'India', 'United Kingdom', 'United States'],
  states: ['New York'],
  cities: ['Zürich', 'New York', 'Geneva', 'London'],
  companies: ['Gerber Labs', 'Acme Corp', 'Leadership Inc'],
});
const labels = (text: string, caret = text.length, terms: readonly Term[] = TERMS) => completeAt(text, caret, terms).map((s) => s.label);

describe('which word is being completed', () => {
  it('is the word ending at the caret, with the one or two words before it', () => {
    expect(fragmentsAt('leads in ger', 12).map((f) => f.text)).toEqual(['ger', 'in ger', 'leads in ger']);
    expect(fragmentsAt('leads, new yo', 13).map((f) => f.text)).toEqual(['yo', 'new yo']);
  });
  it('is none after a space or inside a word', () => {
    expect(fragmentsAt('leads in ', 9)).toEqual([]);
    expect(fragmentsAt('leads in germany', 12)).toEqual([]);
    expect(fragmentsAt('', 0)).toEqual([]);
  });
  it('completes at the caret, not at the end of the text', () => {
    const text = 'leads in ger who bought';
    expect(completeAt(text, 12, TERMS)[0]).toMatchObject({ label: 'Germany', from: 9, to: 12 });
  });
});

describe('completeAt', () => {
  it('completes countries, cities and companies of the CRM', () => {
    expect(labels('leads in ger')[0]).toBe('Germany');
    expect(labels('leads in ger')).toEqual(['Germany', 'Gerber Labs']);
    expect(labels('contacts at acm')).toEqual(['Acme Corp']);
  });
  it('ignores case and accents', () => {
    expect(labels('customers in zur')).toEqual(['Zürich']);
    expect(labels('customers in ZÜR')).toEqual(['Zürich']);
    expect(labels('customers in Gér')[0]).toBe('Germany');
  });
  it('ranks values starting with the fragment before values with a later word starting with it', () => {
    expect(labels('leads in yo')).toEqual(['New York']);
    expect(labels('leads in uni')).toEqual(['United Kingdom', 'United States']);
    // "lead" starts the stage and the company: the stage comes first
    expect(labels('lead')).toEqual(['leads', 'Leadership Inc']);
  });
  it('completes a value of several words from its first words, before the last word alone', () => {
    expect(completeAt('leads in new yo', 15, TERMS)).toEqual([{ label: 'New York', kind: 'state', from: 9, to: 15 }]);
    expect(labels('leads in united k')).toEqual(['United Kingdom']);
  });
  it('keeps the order of the CRM values (most frequent first) among equals', () => {
    expect(labels('in ge')).toEqual(['Germany', 'Georgia', 'Geneva', 'Gerber Labs']);
  });
  it('completes stages and field names', () => {
    expect(labels('opp')).toEqual(['opportunities']);
    expect(labels('customers with lifet')).toEqual(['lifetime value']);
    expect(labels('in eur')).toEqual(['Europe']);
  });
  it('suggests nothing for common words, one letter, or a value typed in full', () => {
    expect(labels('customers in')).toEqual([]);
    expect(labels('customers at')).toEqual([]);
    expect(labels('customers in g')).toEqual([]);
    expect(labels('customers in germany')).toEqual([]);
    expect(labels('customers in ')).toEqual([]);
  });
  it('returns at most max suggestions', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ label: `Berlin ${i}`, kind: 'city' as const }));
    expect(completeAt('in ber', 6, many, 5)).toHaveLength(5);
  });
});

describe('endsWithTerm', () => {
  it('tells a word that already is a whole term (case and accents ignored) from one being typed', () => {
    expect(endsWithTerm('lead', 4, TERMS)).toBe(false);
    expect(endsWithTerm('leads', 5, TERMS)).toBe(true);
    expect(endsWithTerm('customers in zurich', 19, TERMS)).toBe(true);
    expect(endsWithTerm('customers in new york', 21, TERMS)).toBe(true);
    expect(endsWithTerm('customers in ger', 16, TERMS)).toBe(false);
  });
});

describe('acceptCompletion', () => {
  it('replaces the fragment and puts the caret after a space', () => {
    const [s] = completeAt('leads in ger', 12, TERMS);
    expect(acceptCompletion('leads in ger', s)).toEqual({ text: 'leads in Germany ', caret: 17 });
  });
  it('keeps the text after the caret, adding no second space', () => {
    const [s] = completeAt('leads in ger who bought', 12, TERMS);
    expect(acceptCompletion('leads in ger who bought', s)).toEqual({ text: 'leads in Germany who bought', caret: 17 });
  });
  it('replaces every word of a value of several words', () => {
    const [s] = completeAt('leads in new yo', 15, TERMS);
    expect(acceptCompletion('leads in new yo', s).text).toBe('leads in New York ');
  });
});

it('names stages as questions do', () => {
  expect(['lead', 'opportunity', 'customer', 'subscriber'].map(stagePlural)).toEqual(['leads', 'opportunities', 'customers', 'subscribers']);
});

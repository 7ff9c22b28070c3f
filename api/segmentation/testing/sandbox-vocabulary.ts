/**
 * The HubSpot sandbox's own values (its 5,000 synthetic contacts at the evaluation's "now") as the
 * parser's CRM vocabulary, most frequent first: the evaluation and the tests parse as the query service
 * does for an account connected to the sandbox.
 */
import { generateContacts } from '../../crm/hubspot-sandbox/data.js';
import { CrmVocabulary, type VocabularyValues } from '../parser/vocabulary.js';

const byFrequency = (values: Array<string | null | undefined>) => {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([v]) => v);
};

const cache = new Map<string, CrmVocabulary>();

export function sandboxValues(now: string): VocabularyValues {
  const contacts = generateContacts({ count: 5000, seed: 42, now });
  return {
    company: byFrequency(contacts.map((c) => c.company)),
    city: byFrequency(contacts.map((c) => c.city)),
    state: byFrequency(contacts.map((c) => c.state)),
    country: byFrequency(contacts.map((c) => c.country)),
    emailDomain: byFrequency(contacts.map((c) => (typeof c.email === 'string' ? c.email.split('@')[1] : undefined))),
  };
}

export function sandboxVocabulary(now: string): CrmVocabulary {
  let v = cache.get(now);
  if (!v) {
    v = CrmVocabulary.from(sandboxValues(now));
    cache.set(now, v);
  }
  return v;
}

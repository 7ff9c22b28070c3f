// The example questions an empty conversation offers (issue 25), shared by the web's chat panel: one per kind
// of condition — place and stage, purchase recency, lifetime value, company — and one that combines a region
// with a purchase gap. The country and the company are the most frequent of the user's CRM once its values
// are known (the company question only then), so that a click asks about the user's own customers.
import type { VocabularyLists } from './completion.js';

export const DEFAULT_EXAMPLE_COUNTRY = 'Germany';

export function exampleQuestions(vocabulary: Pick<VocabularyLists, 'countries' | 'companies'> | null): string[] {
  const country = vocabulary?.countries[0] ?? DEFAULT_EXAMPLE_COUNTRY;
  const company = vocabulary?.companies[0];
  return [
    `leads in ${country}`,
    'customers who bought in the last 30 days',
    'customers with lifetime value over $5k',
    ...(company ? [`contacts at ${company}`] : []),
    'customers in Europe who have not bought in 90 days',
  ];
}

// The columns of the results table: what each shows, which server sort it uses, how wide it is, and
// which fields of a question it answers (those columns come first). Which columns a user hides is
// remembered in this browser.
import type { CustomerSortField } from '../../__generated__/ResultsPanelRefetchQuery.graphql';

export type ColumnKey = 'customer' | 'company' | 'stage' | 'location' | 'lifetimeValue' | 'lastPurchase';

export interface ColumnDef {
  key: ColumnKey;
  label: string;
  sort: CustomerSortField;
  /** relative width (the table is laid out fixed to the panel's width) */
  weight: number;
  /** the question's fields this column answers */
  fields: string[];
}

export const COLUMNS: readonly ColumnDef[] = [
  { key: 'customer', label: 'Customer', sort: 'name', weight: 2.2, fields: ['name', 'firstName', 'lastName', 'email', 'emailDomain'] },
  { key: 'company', label: 'Company', sort: 'company', weight: 1.1, fields: ['company'] },
  { key: 'stage', label: 'Stage', sort: 'lifecycleStage', weight: 1.25, fields: ['lifecycleStage', 'hubspotStage'] },
  { key: 'location', label: 'Location', sort: 'location', weight: 1.3, fields: ['city', 'state', 'country', 'region'] },
  { key: 'lifetimeValue', label: 'Lifetime value', sort: 'lifetimeValue', weight: 1.1, fields: ['lifetimeValue'] },
  { key: 'lastPurchase', label: 'Last purchase', sort: 'lastPurchaseDate', weight: 1.4, fields: ['lastPurchaseDate', 'lastPurchaseAmount', 'hasPurchased'] },
];

/** The customer column always shows (it opens the contact); the others can be hidden. */
export const ALWAYS_SHOWN: ColumnKey = 'customer';

/**
 * The columns in the order to show them: the customer, then the columns answering the question's
 * fields (in the order the question names them), then the others in their usual order.
 */
export function orderColumns(questionFields: readonly string[]): ColumnDef[] {
  const answering: ColumnDef[] = [];
  for (const field of questionFields) {
    const column = COLUMNS.find((c) => c.fields.includes(field));
    if (column && column.key !== ALWAYS_SHOWN && !answering.includes(column)) answering.push(column);
  }
  return [COLUMNS[0], ...answering, ...COLUMNS.filter((c) => c.key !== ALWAYS_SHOWN && !answering.includes(c))];
}

const STORAGE_KEY = 'crm-assistant.results.hiddenColumns';

export function loadHiddenColumns(): ColumnKey[] {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((k): k is ColumnKey => COLUMNS.some((c) => c.key === k && k !== ALWAYS_SHOWN)) : [];
  } catch {
    return [];
  }
}

export function saveHiddenColumns(hidden: ColumnKey[]) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(hidden));
  } catch {
    // storage full or disabled: the choice holds for this page only
  }
}

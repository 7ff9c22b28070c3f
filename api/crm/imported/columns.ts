/**
 * What a contacts file's columns can hold, and which column holds what, guessed from its header names
 * as HubSpot, Salesforce, Pipedrive, Zoho and generic exports write them ("First Name", "Email
 * Address", "Lifecycle Stage", "Total Revenue", "Last Purchase Date", "Mailing Country",
 * "Person - Email - Work", "Created Time", ...). The user confirms or changes the guess.
 */
import { FIELD_LABELS, type MappableField } from '../field-map.js';

/** The customer fields a column can be imported as, plus the record id and a full name split into first and last. */
export const IMPORT_FIELDS = [
  'id', 'firstName', 'lastName', 'fullName', 'email', 'company', 'lifecycleStage',
  'lastPurchaseDate', 'lastPurchaseAmount', 'lifetimeValue', 'city', 'state', 'country', 'createdAt',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  ...(FIELD_LABELS as Record<MappableField, string>),
  id: 'Record ID',
  fullName: 'Full name (split into first and last)',
};

export const IMPORT_FIELD_KINDS: Record<ImportField, 'text' | 'number' | 'date' | 'stage'> = {
  id: 'text', firstName: 'text', lastName: 'text', fullName: 'text', email: 'text', company: 'text', lifecycleStage: 'stage',
  lastPurchaseDate: 'date', lastPurchaseAmount: 'number', lifetimeValue: 'number', city: 'text', state: 'text', country: 'text', createdAt: 'date',
};

/** Header names (normalized: lower case, words separated by one space) per field, best first. */
const SYNONYMS: Record<ImportField, string[]> = {
  id: ['record id', 'id', 'contact id', 'lead id', 'person id', 'customer id', 'hubspot id', 'hs object id', 'object id', 'crm id', 'external id', 'contact record id'],
  firstName: ['first name', 'firstname', 'given name', 'forename', 'first', 'fname'],
  lastName: ['last name', 'lastname', 'surname', 'family name', 'last', 'lname'],
  fullName: ['full name', 'name', 'contact name', 'person name', 'customer name', 'lead name', 'contact', 'person', 'customer'],
  email: ['email', 'email address', 'e mail', 'e mail address', 'primary email', 'work email', 'business email', 'personal email', 'email 1', 'email work', 'email home', 'email other', 'mail'],
  company: ['company', 'company name', 'associated company', 'organization', 'organisation', 'organization name', 'organisation name', 'org name', 'account', 'account name', 'employer', 'business name'],
  lifecycleStage: ['lifecycle stage', 'lifecyclestage', 'lifecycle', 'customer stage', 'contact stage', 'stage', 'lead status', 'lead stage', 'status', 'contact status', 'customer status', 'label'],
  lastPurchaseDate: [
    'last purchase date', 'last purchase', 'date of last purchase', 'recent deal close date', 'last deal close date', 'last order date',
    'last order', 'last sale date', 'last transaction date', 'recent purchase date', 'last won deal date', 'last closed won date', 'close date',
  ],
  lastPurchaseAmount: [
    'last purchase amount', 'last purchase value', 'recent deal amount', 'last deal amount', 'last deal value', 'last order amount',
    'last order value', 'last order total', 'last sale amount', 'last transaction amount', 'amount',
  ],
  lifetimeValue: [
    'lifetime value', 'total revenue', 'customer lifetime value', 'ltv', 'clv', 'lifetime revenue', 'total spent', 'total spend',
    'total sales', 'total purchases', 'total purchase amount', 'total order value', 'revenue', 'total amount', 'total value of won deals', 'won deals value',
  ],
  city: ['city', 'town', 'city town', 'locality', 'city name'],
  state: ['state', 'state region', 'state province', 'province', 'region state', 'province state', 'county state'],
  country: ['country', 'country region', 'country name', 'nation', 'region country'],
  createdAt: [
    'create date', 'created', 'created date', 'created at', 'createdate', 'created time', 'date created', 'creation date', 'created on',
    'add time', 'added', 'date added', 'signup date', 'sign up date',
  ],
};

/** Words a header may carry around the field's name ("Mailing Country", "Person - Email - Work"). */
const PREFIXES = ['mailing', 'billing', 'shipping', 'primary', 'contact', 'person', 'lead', 'customer', 'organization', 'organisation', 'account'];

/** "Person - Email (Work)" → "person email work"; "firstName" → "first name". */
export function normalizeHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const SCORE = new Map<string, { field: ImportField; rank: number }>();
IMPORT_FIELDS.forEach((field) =>
  SYNONYMS[field].forEach((name, i) => {
    // a name listed for two fields belongs to the first that lists it
    if (!SCORE.has(name)) SCORE.set(name, { field, rank: i });
  }),
);

/** The field a header names and how surely (lower is surer), or null. */
function guessOne(header: string): { field: ImportField; score: number } | null {
  const h = normalizeHeader(header);
  const exact = SCORE.get(h);
  if (exact) return { field: exact.field, score: exact.rank };
  // "Mailing Country", "Person - Email - Work", "Organization - Name": known words before a known name
  const words = h.split(' ');
  for (let i = 1; i < words.length && PREFIXES.includes(words[i - 1]); i++) {
    const rest = words.slice(i).join(' ');
    const hit = SCORE.get(rest);
    if (!hit) continue;
    // "Organization - Name" is the company; "Person - Name" the person's full name
    if (rest === 'name' && ['organization', 'organisation', 'account'].includes(words[i - 1])) return { field: 'company', score: 50 };
    return { field: hit.field, score: 100 * i + hit.rank };
  }
  return null;
}

/**
 * The guessed field of each column (null: not imported). Each field goes to at most one column: the
 * surest guess wins, the leftmost on a tie. A full name is only used when there is no first name column.
 */
export function guessColumns(headers: readonly string[]): (ImportField | null)[] {
  const guesses = headers.map((h, i) => ({ i, g: guessOne(h) }));
  const out: (ImportField | null)[] = headers.map(() => null);
  const taken = new Set<ImportField>();
  for (const { i, g } of guesses.filter((x) => x.g).sort((a, b) => a.g!.score - b.g!.score || a.i - b.i)) {
    if (taken.has(g!.field)) continue;
    taken.add(g!.field);
    out[i] = g!.field;
  }
  if (taken.has('fullName') && taken.has('firstName')) out[out.indexOf('fullName')] = null;
  return out;
}

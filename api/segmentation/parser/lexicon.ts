/** Vocabulary of the deterministic parser: phrase tables for places, stages, fields, comparators, dates. */
import { foreignCountryNames } from './country-names.js';
import { HOLIDAYS } from './holidays.js';
import type { DateField, DateUnit, LifecycleStage, LifecycleValue, NumberField, Region, SortField } from '../ast.js';
import {
  CANADIAN_PROVINCES,
  CITIES,
  COUNTRIES,
  COUNTRY_GROUPS,
  COUNTRY_VARIANTS,
  US_STATES,
} from '../regions.js';
import { normaliseWord } from './lexer.js';

/** Multi-word phrase lookup with longest match. Phrases are normalised words separated by spaces. */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, Array<{ words: string[]; value: T }>>();
  readonly words = new Set<string>();

  add(phrase: string, value: T): this {
    const words = phrase.split(/\s+/).map(normaliseWord).filter(Boolean);
    if (words.length === 0) return this;
    for (const w of words) this.words.add(w);
    const list = this.byFirst.get(words[0]) ?? [];
    list.push({ words, value });
    list.sort((a, b) => b.words.length - a.words.length);
    this.byFirst.set(words[0], list);
    return this;
  }

  addAll(phrases: string[], value: T): this {
    for (const p of phrases) this.add(p, value);
    return this;
  }

  /** Every phrase of `n` words. */
  phrasesOf(n: number): string[][] {
    const out: string[][] = [];
    for (const list of this.byFirst.values()) for (const e of list) if (e.words.length === n) out.push(e.words);
    return out;
  }

  /** Longest phrase starting at `i` in the given word list. */
  match(texts: readonly string[], i: number): { value: T; len: number } | undefined {
    const list = this.byFirst.get(texts[i]);
    if (!list) return undefined;
    for (const e of list) {
      let ok = true;
      for (let k = 0; k < e.words.length; k++) {
        if (texts[i + k] !== e.words[k]) {
          ok = false;
          break;
        }
      }
      if (ok) return { value: e.value, len: e.words.length };
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Places

export type PlaceValue =
  | { field: 'country' | 'state' | 'city'; value: string; ambiguous?: boolean }
  | { field: 'region'; values: Region[]; ambiguous?: boolean }
  | { field: 'countries'; values: string[] }
  | { field: 'states'; values: string[] };

export const PLACES = new PhraseTable<PlaceValue>();

// Georgia the US state wins over Georgia the country unless "country" is said explicitly.
const STATE_NAMES_FIRST = new Set(['Georgia']);
for (const c of COUNTRIES) if (!STATE_NAMES_FIRST.has(c)) PLACES.add(c.replace(/-/g, ' '), { field: 'country', value: c });
for (const [c, variants] of Object.entries(COUNTRY_VARIANTS)) {
  for (const v of variants) {
    if (/^[A-Z.]+$/.test(v)) continue; // abbreviations handled below
    PLACES.add(v.replace(/-/g, ' ').replace(/'/g, ''), { field: 'country', value: c });
  }
}
const COUNTRY_ALIASES: Record<string, string[]> = {
  'United States': ['usa', 'us', 'u s', 'u s a', 'us only', 'usa only', 'america', 'united states of america', 'the states', 'states', 'stateside', 'american', 'americans'],
  'United Kingdom': ['uk', 'britain', 'great britain', 'england', 'scotland', 'wales', 'gb', 'british', 'english', 'scottish', 'welsh'],
  Germany: ['deutschland', 'german', 'germans'],
  France: ['french'],
  Spain: ['spanish', 'espana'],
  Italy: ['italian', 'italia'],
  Netherlands: ['dutch', 'holland', 'the netherlands'],
  Switzerland: ['swiss', 'schweiz', 'suisse'],
  Austria: ['austrian', 'osterreich'],
  Belgium: ['belgian'],
  Sweden: ['swedish'],
  Norway: ['norwegian'],
  Denmark: ['danish'],
  Finland: ['finnish'],
  Ireland: ['irish'],
  Poland: ['polish'],
  Portugal: ['portuguese'],
  Greece: ['greek'],
  Canada: ['canadian', 'canadians'],
  Mexico: ['mexican', 'mexicans'],
  Brazil: ['brazilian', 'brasil'],
  Argentina: ['argentinian', 'argentine'],
  Chile: ['chilean'],
  Colombia: ['colombian'],
  Australia: ['australian', 'aussie', 'aus'],
  'New Zealand': ['nz', 'kiwi'],
  Japan: ['japanese'],
  China: ['chinese', 'prc'],
  India: ['indian'],
  Singapore: ['singaporean'],
  'South Korea': ['korean', 'korea'],
  Israel: ['israeli'],
  Turkey: ['turkish'],
  'United Arab Emirates': ['uae', 'emirates', 'emirati'],
  'Saudi Arabia': ['saudi', 'ksa'],
  'South Africa': ['south african'],
  Nigeria: ['nigerian'],
  Egypt: ['egyptian'],
  Russia: ['russian'],
  Ukraine: ['ukrainian'],
  'Czech Republic': ['czech'],
  Hungary: ['hungarian'],
  Romania: ['romanian'],
  Philippines: ['filipino'],
  Indonesia: ['indonesian'],
  Vietnam: ['vietnamese'],
  Thailand: ['thai'],
  Malaysia: ['malaysian'],
  'Hong Kong': ['hk'],
};
for (const [c, aliases] of Object.entries(COUNTRY_ALIASES)) for (const a of aliases) PLACES.add(a, { field: 'country', value: c });

for (const s of [...Object.keys(US_STATES), ...Object.keys(CANADIAN_PROVINCES)]) PLACES.add(s, { field: 'state', value: s });
PLACES.add('washington state', { field: 'state', value: 'Washington' });
PLACES.add('californian', { field: 'state', value: 'California' });
PLACES.add('texan', { field: 'state', value: 'Texas' });
// slang for California ("cali and texas"); Cali the Colombian city is in some CRMs, so it may be asked about
PLACES.add('cali', { field: 'state', value: 'California', ambiguous: true });
const AMBIGUOUS_CITIES = new Set(['Nice', 'Santiago', 'Perth', 'Columbus', 'Portland', 'Birmingham', 'Valencia']);
for (const c of CITIES) {
  if (c === 'New York') continue;
  PLACES.add(c.replace(/\./g, ''), { field: 'city', value: c, ambiguous: AMBIGUOUS_CITIES.has(c) ? true : undefined });
}
PLACES.add('new york city', { field: 'city', value: 'New York' });
PLACES.add('nyc', { field: 'city', value: 'New York' });
PLACES.add('washington dc', { field: 'city', value: 'Washington' });
PLACES.add('sf', { field: 'city', value: 'San Francisco' });
PLACES.add('la', { field: 'city', value: 'Los Angeles', ambiguous: true });
PLACES.add('sao paulo', { field: 'city', value: 'São Paulo' });
PLACES.add('bogota', { field: 'city', value: 'Bogotá' });
PLACES.add('medellin', { field: 'city', value: 'Medellín' });
PLACES.add('dusseldorf', { field: 'city', value: 'Düsseldorf' });
PLACES.add('st louis', { field: 'city', value: 'St. Louis' });
PLACES.add('bc', { field: 'state', value: 'British Columbia' });
PLACES.add('rio', { field: 'city', value: 'Rio de Janeiro' });
// Australians' names for their cities
PLACES.add('brissie', { field: 'city', value: 'Brisbane' });
// Australian states by the codes that are no other place's ("sydney nsw", "brisbane, QLD")
PLACES.add('nsw', { field: 'state', value: 'New South Wales' });
PLACES.add('qld', { field: 'state', value: 'Queensland' });
PLACES.add('brisvegas', { field: 'city', value: 'Brisbane' });
// cities by their own names (typed by people who live there): the CRM is searched in its spelling
const EXONYMS: Record<string, string> = {
  münchen: 'Munich', köln: 'Cologne', göteborg: 'Gothenburg', wien: 'Vienna', praha: 'Prague', lisboa: 'Lisbon', milano: 'Milan',
  roma: 'Rome', firenze: 'Florence', napoli: 'Naples', torino: 'Turin', bruxelles: 'Brussels', brussel: 'Brussels', antwerpen: 'Antwerp',
  'den haag': 'The Hague', genève: 'Geneva', genf: 'Geneva', sevilla: 'Seville', warszawa: 'Warsaw', københavn: 'Copenhagen',
  bombay: 'Mumbai', peking: 'Beijing', 'ciudad de mexico': 'Mexico City', cdmx: 'Mexico City', montréal: 'Montreal',
  // and by their Spanish and Portuguese names (typed by Latin American teams)
  londres: 'London', 'nueva york': 'New York', 'nova york': 'New York', 'nova iorque': 'New York', tokio: 'Tokyo', ginebra: 'Geneva',
  genebra: 'Geneva', varsovia: 'Warsaw', varsóvia: 'Warsaw', bruselas: 'Brussels', estocolmo: 'Stockholm', copenhague: 'Copenhagen',
  viena: 'Vienna', munique: 'Munich', milão: 'Milan', zurique: 'Zurich', fráncfort: 'Frankfurt', frankfurt: 'Frankfurt', colonia: 'Cologne',
  pekín: 'Beijing', pequim: 'Beijing', 'ciudad del cabo': 'Cape Town', 'cidade do cabo': 'Cape Town', 'nueva delhi': 'New Delhi', 'nova délhi': 'New Delhi',
};
for (const [name, city] of Object.entries(EXONYMS)) PLACES.add(name, { field: 'city', value: city });

const region = (...values: Region[]): PlaceValue => ({ field: 'region', values });
PLACES.addAll(['europe', 'european', 'europeans', 'european countries'], region('Europe'));
PLACES.addAll(['north america', 'north american', 'northern america', 'noram', 'nam'], region('North America'));
// "NA" (upper case, or capitalised) is North America; "na" is too often "not applicable"
PLACES.add('na', { field: 'region', values: ['North America'], ambiguous: true });
PLACES.addAll(['latin america', 'latin american', 'latam', 'latin americans'], region('Latin America'));
PLACES.addAll(['asia pacific', 'apac', 'asia', 'asian', 'asia pac', 'the asia pacific region'], region('Asia-Pacific'));
PLACES.addAll(['middle east and africa', 'middle east & africa', 'mea', 'mena'], region('Middle East & Africa'));
PLACES.addAll(['emea', 'europe middle east and africa'], region('Europe', 'Middle East & Africa'));
PLACES.addAll(['americas', 'the americas'], region('North America', 'Latin America'));
const group = (name: string): PlaceValue => ({ field: 'countries', values: [...COUNTRY_GROUPS[name]] });
PLACES.addAll(['eu', 'european union'], group('European Union'));
PLACES.addAll(['dach'], group('DACH'));
PLACES.addAll(['benelux'], group('Benelux'));
PLACES.addAll(['nordics', 'nordic', 'nordic countries'], group('Nordics'));
PLACES.addAll(['scandinavia', 'scandinavian', 'scandi', 'scandis', 'scandic'], group('Scandinavia'));
PLACES.addAll(['middle east', 'middle eastern'], group('Middle East'));
PLACES.addAll(['africa', 'african'], group('Africa'));
PLACES.addAll(['south america', 'south american'], group('South America'));
PLACES.addAll(['anz', 'australia and new zealand'], group('ANZ'));
PLACES.addAll(['gulf', 'gcc', 'gulf states'], group('Gulf states'));
PLACES.addAll(['subcontinent', 'the subcontinent', 'indian subcontinent', 'south asia', 'south asian'], group('South Asia'));
PLACES.addAll(['down under', 'oz', 'aussie', 'aussies'], { field: 'country', value: 'Australia' });
PLACES.addAll(['kiwi', 'kiwis'], { field: 'country', value: 'New Zealand' });
// "Polska", "España", "Niemcy": what Europeans type for a country (country-names.ts), unless it names another place
// (the words of a name of several words, "Sierra Leona", "Reino Unido", are no typo's target on their own: "lena" is a
// name, not "leona"; nor are the Spanish and Portuguese names of countries outside Europe: "lugano" is no "Líbano")
const placeWords = new Set(PLACES.words);
const foreignNames = foreignCountryNames();
for (const [name, country] of foreignNames) if (!PLACES.match(name.split(/\s+/).map(normaliseWord), 0)) PLACES.add(name, { field: 'country', value: country });
const typoTargets = new Set(foreignNames.filter(([n, , target]) => target && !/\s/.test(n)).map(([n]) => normaliseWord(n)));
/** Words of PLACES that are never a typo's target; a word typed as one of them is kept as typed (index.ts). */
export const UNCORRECTED_PLACE_WORDS: ReadonlySet<string> = new Set([...PLACES.words].filter((w) => !placeWords.has(w) && !typoTargets.has(w)));
// US regions as people say them (the Census Bureau's divisions, the coasts by their ocean-facing states)
const states = (...values: string[]): PlaceValue => ({ field: 'states', values });
PLACES.addAll(['west coast', 'the west coast', 'westcoast'], states('California', 'Oregon', 'Washington'));
PLACES.addAll(['east coast', 'the east coast', 'eastcoast'], states('Maine', 'New Hampshire', 'Massachusetts', 'Rhode Island', 'Connecticut', 'New York', 'New Jersey', 'Delaware', 'Maryland', 'Virginia', 'North Carolina', 'South Carolina', 'Georgia', 'Florida'));
PLACES.addAll(['new england'], states('Maine', 'New Hampshire', 'Vermont', 'Massachusetts', 'Rhode Island', 'Connecticut'));
PLACES.addAll(['midwest', 'the midwest', 'mid west', 'midwestern'], states('Illinois', 'Indiana', 'Michigan', 'Ohio', 'Wisconsin', 'Iowa', 'Kansas', 'Minnesota', 'Missouri', 'Nebraska', 'North Dakota', 'South Dakota'));
PLACES.addAll(['pacific northwest', 'pnw'], states('Washington', 'Oregon', 'Idaho'));
PLACES.addAll(['tri state area', 'tri state', 'tristate'], states('New York', 'New Jersey', 'Connecticut'));
// Canada's regions as Canadians say them
PLACES.addAll(['maritimes', 'the maritimes', 'maritime provinces'], states('Nova Scotia', 'New Brunswick', 'Prince Edward Island'));
PLACES.addAll(['prairies', 'the prairies', 'prairie provinces'], states('Alberta', 'Saskatchewan', 'Manitoba'));

/** US state postal codes ("CA", "TX"); those that are also English words need a preposition before them. */
export const STATE_CODES = new Map<string, string>(Object.entries(US_STATES).map(([name, code]) => [code.toLowerCase(), name]));
export const AMBIGUOUS_STATE_CODES = new Set(['in', 'or', 'me', 'hi', 'ok', 'oh', 'de', 'pa', 'al', 'ma', 'la', 'co', 'id', 'ne', 'mt', 'sc', 'nd', 'md', 'ms', 'mo', 'va']);

// ---------------------------------------------------------------------------------------------------
// Lifecycle stages

export interface StageWord {
  stage: LifecycleStage;
  /** "customers"/"clients": the generic word for contacts unless qualified (see parser README). */
  generic?: boolean;
  /** A sub-stage named by the user ("MQLs", "evangelists"): HubSpot's own lifecycle stage values. */
  hubspot?: LifecycleValue[];
  /** Said as joining ("signed up for the newsletter"): a date right after it is when they became contacts. */
  joined?: boolean;
}

export const STAGES = new PhraseTable<StageWord>();
STAGES.addAll(['lead', 'leads'], { stage: 'lead' });
// Sub-stages filter on HubSpot's own value: "MQLs" are not every lead (the display stage stays "lead").
const MQL = ['mql', 'mqls', "mql's", 'marketing qualified lead', 'marketing qualified leads', 'marketing qualified', 'marketing - qualified lead', 'marketing - qualified leads'];
const SQL = ['sql', 'sqls', "sql's", 'sales qualified lead', 'sales qualified leads', 'sales qualified', 'sales - qualified lead', 'sales - qualified leads'];
STAGES.addAll(MQL, { stage: 'lead', hubspot: ['marketingqualifiedlead'] });
STAGES.addAll(SQL, { stage: 'lead', hubspot: ['salesqualifiedlead'] });
STAGES.addAll(['qualified lead', 'qualified leads'], { stage: 'lead', hubspot: ['marketingqualifiedlead', 'salesqualifiedlead'] });
STAGES.addAll(['prospect', 'prospects', 'opportunity', 'opportunities', 'opp', 'opps', 'open opportunities', 'in the pipeline', 'in pipeline', 'pipeline contacts', 'pipeline deals', 'pipeline opps', 'pipeline'], { stage: 'opportunity' });
STAGES.addAll(['subs', 'sub'], { stage: 'subscriber' });
// (HubSpot's subscriber: opted in to hear from us)
STAGES.addAll(
  [
    'subscribed to the newsletter', 'subscribed to our newsletter', 'subscribed to newsletters', 'subscribed to email marketing',
    'subscribed to marketing emails', 'subscribed to our emails', 'subscribed to the blog', 'subscribed to our blog',
    'signed up for the newsletter', 'signed up for our newsletter', 'signed up to the newsletter', 'signed up to our newsletter',
    'opted in to marketing', 'opted in to email marketing', 'opted in to emails', 'opted into marketing', 'newsletter sign ups',
  ],
  { stage: 'subscriber', joined: true },
);
STAGES.addAll(['subscriber', 'subscribers', 'newsletter subscriber', 'newsletter subscribers', 'blog subscriber', 'blog subscribers', 'email subscribers', 'newsletter people', 'newsletter ppl', 'newsletter contacts', 'newsletter list', 'newsletter signups', 'newsletter folks', 'on the newsletter'], { stage: 'subscriber' });
STAGES.addAll(['customer', 'customers', 'client', 'clients', 'custs', 'cust', 'custies'], { stage: 'customer', generic: true });
STAGES.addAll(['evangelist', 'evangelists', 'advocate', 'advocates', 'brand advocate', 'brand advocates', 'promoters'], { stage: 'customer', hubspot: ['evangelist'] });
STAGES.addAll(['other stage', 'other lifecycle stage', 'lifecycle stage other', 'stage other'], { stage: 'unknown', hubspot: ['other'] });
STAGES.addAll(['unknown stage', 'unknown lifecycle stage', 'unknown lifecycle', 'no stage'], { stage: 'unknown' });
/**
 * Values that name a stage only right after "lifecycle stage" ("lifecycle stage is other", "stage = unknown"):
 * HubSpot's own option names, and words that are ordinary English elsewhere.
 */
export const EXPLICIT_STAGE_VALUES = new PhraseTable<StageWord>();
EXPLICIT_STAGE_VALUES.addAll(['other'], { stage: 'unknown', hubspot: ['other'] });
EXPLICIT_STAGE_VALUES.addAll(['unknown', 'none', 'empty', 'blank'], { stage: 'unknown' });
EXPLICIT_STAGE_VALUES.addAll(['marketingqualifiedlead'], { stage: 'lead', hubspot: ['marketingqualifiedlead'] });
EXPLICIT_STAGE_VALUES.addAll(['salesqualifiedlead'], { stage: 'lead', hubspot: ['salesqualifiedlead'] });

/** Words before "customers"/"clients" that make them the lifecycle stage. */
export const CUSTOMER_QUALIFIERS = new Set(['paying', 'existing', 'current', 'actual', 'real', 'converted', 'won', 'closed', 'signed', 'true']);
/** Words that put "customers" in predicate position ("who are customers", "became clients"). */
export const PREDICATE_WORDS = new Set(['are', 'is', 'were', 'was', 'became', 'become', 'becoming', 'as', 'being', "who's", 'whos', "who're", "that's", "they're", 'theyre']);

// ---------------------------------------------------------------------------------------------------
// Field mentions

export type PresenceField = 'email' | 'company' | 'country' | 'city' | 'state' | 'lifecycleStage' | 'firstName' | 'lastName' | 'lifetimeValue' | 'lastPurchaseAmount' | 'lastPurchaseDate';

export interface Mention {
  /** Field a money value binds to. */
  money?: NumberField;
  /** Field a date binds to. */
  date?: DateField;
  /** A purchase word: without a value it means "has purchased". */
  purchase?: boolean;
  /** Field tested by "with a ..." / "no ...". */
  presence?: PresenceField;
  /** "new": without a date it means "created in the last 30 days". */
  fresh?: boolean;
  /** "active": without a date it means "purchased in the last 90 days". */
  active?: boolean;
  /** Field used by "sorted by ..." */
  sort?: SortField;
  /** A purchase verb ("bought"): "haven't bought since May" reads as lapsed buyers ("no purchases since May" does not). */
  verb?: boolean;
  /** The words say the field has a value ("emailable", "can we email"). */
  asserts?: boolean;
}

export const MENTIONS = new PhraseTable<Mention>();
const LTV: Mention = { money: 'lifetimeValue', presence: 'lifetimeValue', sort: 'lifetimeValue' };
MENTIONS.addAll(
  [
    'lifetime value', 'lifetime values', 'life time value', 'lifetime revenue', 'lifetime spend', 'customer lifetime value',
    'ltv', 'clv', 'cltv', 'total revenue', 'revenue', 'total spend', 'total spending', 'total value', 'total sales',
    'lifetime sales', 'total', 'in total', 'worth', 'value', 'spend to date', 'total purchases', 'total purchase value',
    'total purchase amount', 'total order value', 'total amount spent', 'amount spent', 'total spent', 'lifetime spending',
    'total order amount', 'total orders value', 'total amount', 'cumulative spend', 'cumulative revenue', 'cumulative value', 'money spent',
    'dollar amount of sales', 'amount of sales', 'sales amount', 'sales volume', 'total lifetime spend',
  ],
  LTV,
);
MENTIONS.addAll(['spent', 'spend', 'spends', 'spending', 'has spent', 'have spent', 'billed', 'paid us', 'generated', 'brought in'], { money: 'lifetimeValue', date: 'lastPurchaseDate', purchase: true });
const LAST_PURCHASE: Mention = { money: 'lastPurchaseAmount', date: 'lastPurchaseDate', purchase: true, presence: 'lastPurchaseDate', sort: 'lastPurchaseDate' };
MENTIONS.addAll(
  [
    'last purchase', 'latest purchase', 'most recent purchase', 'recent purchase', 'last order', 'latest order', 'most recent order',
    'recent order', 'last deal', 'latest deal', 'most recent deal', 'last transaction', 'latest transaction', 'last sale',
    'last buy', 'latest buy', 'last bought', 'last ordered', 'last purchased',
  ],
  LAST_PURCHASE,
);
const LAST_PURCHASE_AMOUNT: Mention = { money: 'lastPurchaseAmount', presence: 'lastPurchaseAmount', sort: 'lastPurchaseAmount' };
MENTIONS.addAll(
  [
    'last purchase amount', 'last purchase value', 'last purchase size', 'last order value', 'last order amount', 'last order size',
    'latest purchase amount', 'most recent purchase amount', 'recent purchase amount', 'purchase amount', 'purchase value',
    'order value', 'order amount', 'order size', 'deal size', 'deal amount', 'deal value', 'last deal amount', 'last deal size',
    'recent deal amount', 'basket size', 'ticket size', 'transaction amount', 'transaction value', 'basket value', 'cart value', 'cart size',
    // only the last order's amount is stored: an average order value is read on it (the writers' brief)
    'order total', 'last order total', 'order totals', 'last purchase total', 'purchase total',
    'aov', 'average order value', 'avg order value', 'average order size', 'average order', 'average purchase value', 'avg order',
    'order amt', 'last order amt', 'purchase amt', 'last purchase amt', 'deal amt',
    // a bare "amount" in a CRM is a deal's or an order's ("amount >= 10000", "sort by amount desc")
    'amount', 'amt',
    // "spent over 1k on a single order", "over 2,500 in one order": one purchase (never "more than one order")
    'in one order', 'on one order', 'in a single order', 'on a single order', 'in one purchase', 'on one purchase',
    'in a single purchase', 'on a single purchase', 'in one transaction', 'in a single transaction',
    // (the tokenizer reads "one" as the number 1)
    'in 1 order', 'on 1 order', 'in 1 purchase', 'on 1 purchase', 'in 1 transaction',
  ],
  LAST_PURCHASE_AMOUNT,
);
MENTIONS.addAll(
  [
    'last purchase date', 'last purchased', 'last bought', 'last ordered', 'purchase date', 'date of last purchase', 'last purchase day',
    'last purchasing date', 'last order date', 'close date', 'deal close date', 'last active',
    // an analyst's abbreviations ("lpd in Q4 2025", "lpd mtd")
    'lpd',
  ],
  { date: 'lastPurchaseDate', purchase: true, presence: 'lastPurchaseDate', sort: 'lastPurchaseDate' },
);
MENTIONS.addAll(
  [
    'bought', 'buy', 'buys', 'buying', 'purchased', 'purchasing', 'ordered',
    'made a purchase', 'made purchases', 'made any purchase', 'made any purchases', 'make a purchase', 'made an order',
    'placed an order', 'placed orders', 'place an order', 'transacted', 'shopped',
    // ("have not placed any order during last 4 weeks", "created an order": a purchase, its verb)
    'placed any order', 'placed any orders', 'place any order', 'made any order', 'made any orders', 'created an order',
    'created any order', 'created any orders', 'created orders', 'create an order', 'make any purchase',
    // ("subscribers who never converted to a purchase")
    'converted to a purchase', 'converted to purchase', 'converted into a purchase', 'converted to a sale',
    'checked out', 'completed a purchase', 'completed an order', 'completed purchases', 'completed orders', 'completed checkout',
    // ("customers who used to buy from us but nothing since january": they bought before)
    'used to buy', 'used to order', 'used to purchase', 'used to shop',
  ],
  { money: 'lastPurchaseAmount', date: 'lastPurchaseDate', purchase: true, verb: true },
);
MENTIONS.addAll(
  [
    'purchase', 'purchases', 'order', 'orders', 'buyer', 'buyers', 'purchaser', 'purchasers', 'shoppers', 'shopper', 'transaction', 'transactions',
    // a shop's word for an order ("big baskets last month")
    'basket', 'baskets',
    // "past buyers in EMEA who haven't ordered in 6 months": people who have bought
    'past buyers', 'past purchasers', 'previous buyers', 'former buyers', 'past customers', 'previous customers', 'former customers',
  ],
  { money: 'lastPurchaseAmount', date: 'lastPurchaseDate', purchase: true },
);
MENTIONS.addAll(
  [
    'created', 'added', 'signed up', 'sign up', 'signup', 'signups', 'sign ups', 'joined', 'registered', 'created date', 'creation date',
    'create date', 'date created', 'date added', 'acquired', 'became a contact', 'became contacts', 'entered the crm', 'onboarded',
    'came in', 'come in', 'comes in', 'coming in', 'came on board', 'were added', 'was added', 'got added', 'been added',
    'have been added', 'were created', 'was created', 'arrived', 'showed up', 'entered', 'joined us', 'registered',
    'registration date', 'signup date', 'sign up date', 'join date', 'joined date', 'date joined', 'date registered', 'date of signup',
    'date of registration', 'imported', 'were imported', 'was imported', 'got imported',
  ],
  { date: 'createdAt', sort: 'createdAt' },
);
// "leads that have been in the database for more than 6 months": how long they have been contacts
MENTIONS.addAll(
  ['been in the database', 'been in our database', 'been in the crm', 'been in our crm', 'been on the list', 'been on our list', 'been with us', 'been a contact', 'been subscribed', 'been a subscriber', 'been a lead', 'been in the system'],
  { date: 'createdAt' },
);
MENTIONS.addAll(['new', 'newly added', 'newly created', 'fresh', 'new contacts', 'new signups', 'new sign ups', 'new people'], { date: 'createdAt', fresh: true });
// (not "engaged": engagement is e-mail opens and clicks, which there is no field for)
MENTIONS.addAll(['active'], { date: 'lastPurchaseDate', active: true });
MENTIONS.addAll(['can email', 'could email', 'can we email', 'could we email', 'we can email', 'we could email', 'can be emailed', 'emailable', 'reachable by email', 'contactable by email', 'contactable'], { presence: 'email', asserts: true });
MENTIONS.addAll(['email', 'emails', 'email address', 'email addresses', 'e mail', 'e mail address', 'mail address'], { presence: 'email', sort: 'email' });
MENTIONS.addAll(['company', 'company name', 'employer', 'organization', 'organisation'], { presence: 'company', sort: 'company' });
MENTIONS.addAll(['country', 'country set'], { presence: 'country', sort: 'country' });
MENTIONS.addAll(['city'], { presence: 'city', sort: 'city' });
MENTIONS.addAll(['state', 'province'], { presence: 'state', sort: 'state' });
MENTIONS.addAll(['lifecycle stage', 'lifecycle', 'stage', 'lifecyclestage'], { presence: 'lifecycleStage' });
MENTIONS.addAll(['first name', 'firstname'], { presence: 'firstName', sort: 'firstName' });
MENTIONS.addAll(['last name', 'lastname', 'surname', 'family name', 'name', 'names'], { presence: 'lastName', sort: 'lastName' });

// ---------------------------------------------------------------------------------------------------
// Comparators

export type Cmp = 'gt' | 'gte' | 'lt' | 'lte' | 'eq';

export const COMPARATORS_BEFORE = new PhraseTable<Cmp>();
COMPARATORS_BEFORE.addAll(
  ['over', 'above', 'more than', 'greater than', 'higher than', 'bigger than', 'larger than', 'exceeding', 'exceeds', 'exceed',
    'in excess of', 'north of', '>', 'beyond', 'upwards of', 'more then', 'greater then', 'over than', 'bigger than', 'bigger then', 'larger than', 'larger then', 'higher then'],
  'gt',
);
COMPARATORS_BEFORE.addAll(['at or above', 'at or over', 'at or more than', 'equal to or above', 'equal to or over'], 'gte');
COMPARATORS_BEFORE.addAll(['at or below', 'at or under', 'equal to or below', 'equal to or under'], 'lte');
COMPARATORS_BEFORE.addAll(
  ['at least', 'minimum', 'min', 'minimum of', 'a minimum of', 'no less than', 'not less than', '>=', 'starting at', 'starting from',
    'equal to or more than', 'equal or greater than', 'greater than or equal to', 'more than or equal to', 'atleast'],
  'gte',
);
COMPARATORS_BEFORE.addAll(
  // ("sub-$500 orders": under, not subscribers)
  ['under', 'below', 'less than', 'lower than', 'smaller than', 'fewer than', 'beneath', 'south of', '<', 'less then', 'lower then', 'smaller then', 'sub -'],
  'lt',
);
COMPARATORS_BEFORE.addAll(
  ['at most', 'no more than', 'not more than', 'maximum', 'max', 'maximum of', 'a maximum of', 'up to', '<=', 'not over',
    'not exceeding', 'no higher than', 'not above', 'less than or equal to', 'equal or less than'],
  'lte',
);
COMPARATORS_BEFORE.addAll(['exactly', 'equal to', 'equals', '=', 'precisely'], 'eq');

export const COMPARATORS_AFTER = new PhraseTable<Cmp>();
COMPARATORS_AFTER.addAll(['+', 'or more', 'or above', 'or higher', 'or greater', 'and up', 'and above', 'plus', 'or over', 'minimum', 'min', 'and more', 'or bigger'], 'gte');
COMPARATORS_AFTER.addAll(['or less', 'or below', 'or under', 'or lower', 'and under', 'and below', 'maximum', 'max', 'or fewer', 'or smaller'], 'lte');

export const CURRENCY_WORDS = new Set([
  'dollars', 'dollar', 'usd', 'bucks', 'us dollars', 'euros', 'euro', 'eur', 'pounds', 'gbp', 'francs', 'franc', 'kronor', 'krona', 'kroner',
  'krone', 'zloty', 'zlotys', 'zl', 'yen', 'rupees', 'rupee', 'reais', 'real', 'pesos', 'rand', 'dirhams', 'dirham', 'quid',
]);
/** ISO 4217 codes (ICU's list), an amount's currency when right next to it ("500 CHF", "SEK 2,000"). */
export const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));
/** Nouns that make a number a count of something we have no field for ("more than 5 orders"). */
export const COUNT_NOUNS = new Set([
  'orders', 'order', 'purchases', 'purchase', 'deals', 'deal', 'times', 'visits', 'visit', 'employees', 'emails', 'calls', 'meetings',
  'tickets', 'items', 'products', 'transactions', 'sessions', 'logins', 'seats', 'users', 'contacts', 'people', 'customers',
  'leads', 'clients', 'opens', 'clicks',
]);

// ---------------------------------------------------------------------------------------------------
// Dates

export const UNITS = new PhraseTable<DateUnit>();
// (with the possessive: "last week's buyers", "this quarter's signups")
UNITS.addAll(['day', 'days', 'd', "day's"], 'day');
UNITS.addAll(['week', 'weeks', 'wk', 'wks', "week's"], 'week');
UNITS.addAll(['month', 'months', 'mo', 'mos', 'mth', 'mths', 'mnth', 'mnths', "month's"], 'month');
UNITS.addAll(['quarter', 'quarters', 'qtr', 'qtrs', "quarter's"], 'quarter');
UNITS.addAll(['year', 'years', 'yr', 'yrs', '12 months', "year's"], 'year');
// (a fiscal year is read as the calendar year: the date chips show which dates were used)
UNITS.addAll(['fy', 'fys', 'fiscal year', 'fiscal years', 'financial year', 'financial years', "fy's"], 'year');

export const MONTHS = new PhraseTable<number>();
['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].forEach((m, i) => {
  MONTHS.add(m, i + 1);
  if (m !== 'may') MONTHS.add(m.slice(0, 3), i + 1);
});
MONTHS.add('sept', 9);

// ---------------------------------------------------------------------------------------------------
// Sorting and limits

export type SortDirection = 'asc' | 'desc';

export interface Superlative {
  phrase: string[];
  field: SortField;
  direction: SortDirection;
  /** a description more than a ranking ("high spenders", "whales"): no sort when the question gives the amount */
  soft?: boolean;
  /** The last word is a noun the phrase leaves for the stage recogniser ("best customers"). */
  keepsNoun: boolean;
}

const superlative = (phrase: string, field: SortField, direction: SortDirection, keepsNoun = false): Superlative => ({
  phrase: phrase.split(' '), field, direction, keepsNoun, soft: SOFT_SUPERLATIVES.has(phrase),
});
const SOFT_SUPERLATIVES = new Set(['big spenders', 'high spenders', 'heavy spenders', 'whales']);

/** "biggest spenders", "newest": a sort without "by". */
export const SUPERLATIVES: Superlative[] = [
  superlative('biggest spenders', 'lifetimeValue', 'desc'),
  superlative('big spenders', 'lifetimeValue', 'desc'),
  superlative('high spenders', 'lifetimeValue', 'desc'),
  superlative('heavy spenders', 'lifetimeValue', 'desc'),
  superlative('whales', 'lifetimeValue', 'desc'),
  superlative('top spenders', 'lifetimeValue', 'desc'),
  superlative('largest spenders', 'lifetimeValue', 'desc'),
  superlative('highest spenders', 'lifetimeValue', 'desc'),
  superlative('heaviest spenders', 'lifetimeValue', 'desc'),
  superlative('best customers', 'lifetimeValue', 'desc', true),
  superlative('most valuable', 'lifetimeValue', 'desc'),
  superlative('highest value', 'lifetimeValue', 'desc'),
  superlative('highest lifetime value', 'lifetimeValue', 'desc'),
  superlative('highest ltv', 'lifetimeValue', 'desc'),
  superlative('highest revenue', 'lifetimeValue', 'desc'),
  superlative('highest total revenue', 'lifetimeValue', 'desc'),
  superlative('most revenue', 'lifetimeValue', 'desc'),
  superlative('highest spending', 'lifetimeValue', 'desc'),
  superlative('spent the most', 'lifetimeValue', 'desc'),
  superlative('biggest customers', 'lifetimeValue', 'desc', true),
  superlative('largest customers', 'lifetimeValue', 'desc', true),
  superlative('biggest accounts', 'lifetimeValue', 'desc', true),
  superlative('largest accounts', 'lifetimeValue', 'desc', true),
  superlative('biggest clients', 'lifetimeValue', 'desc', true),
  superlative('largest clients', 'lifetimeValue', 'desc', true),
  superlative('lowest lifetime value', 'lifetimeValue', 'asc'),
  superlative('lowest ltv', 'lifetimeValue', 'asc'),
  superlative('lowest value', 'lifetimeValue', 'asc'),
  superlative('least valuable', 'lifetimeValue', 'asc'),
  superlative('smallest spenders', 'lifetimeValue', 'asc'),
  superlative('lowest spenders', 'lifetimeValue', 'asc'),
  superlative('spent the least', 'lifetimeValue', 'asc'),
  superlative('lowest revenue', 'lifetimeValue', 'asc'),
  superlative('largest purchases', 'lastPurchaseAmount', 'desc'),
  superlative('biggest purchases', 'lastPurchaseAmount', 'desc'),
  superlative('largest orders', 'lastPurchaseAmount', 'desc'),
  superlative('biggest orders', 'lastPurchaseAmount', 'desc'),
  superlative('largest deals', 'lastPurchaseAmount', 'desc'),
  superlative('biggest deals', 'lastPurchaseAmount', 'desc'),
  superlative('largest last purchase', 'lastPurchaseAmount', 'desc'),
  superlative('biggest last purchase', 'lastPurchaseAmount', 'desc'),
  superlative('highest last purchase', 'lastPurchaseAmount', 'desc'),
  superlative('highest purchase', 'lastPurchaseAmount', 'desc'),
  superlative('highest order value', 'lastPurchaseAmount', 'desc'),
  superlative('highest aov', 'lastPurchaseAmount', 'desc'),
  superlative('biggest aov', 'lastPurchaseAmount', 'desc'),
  superlative('highest average order value', 'lastPurchaseAmount', 'desc'),
  superlative('lowest aov', 'lastPurchaseAmount', 'asc'),
  superlative('lowest average order value', 'lastPurchaseAmount', 'asc'),
  superlative('highest order values', 'lastPurchaseAmount', 'desc'),
  superlative('highest purchase values', 'lastPurchaseAmount', 'desc'),
  superlative('highest lifetime values', 'lifetimeValue', 'desc'),
  superlative('smallest purchases', 'lastPurchaseAmount', 'asc'),
  superlative('smallest orders', 'lastPurchaseAmount', 'asc'),
  // "the 20 largest last orders", "10 smallest deals"
  ...['largest', 'biggest', 'highest', 'smallest', 'lowest'].flatMap((adj) =>
    ['last orders', 'last purchases', 'last order', 'last deals', 'recent orders', 'order sizes', 'deal sizes', 'deal size', 'smallest', 'deals', 'deal']
      .filter((n) => n !== adj)
      .map((n) => superlative(`${adj} ${n}`, 'lastPurchaseAmount', adj === 'smallest' || adj === 'lowest' ? 'asc' : 'desc')),
  ),
  superlative('lowest order value', 'lastPurchaseAmount', 'asc'),
  superlative('most recently purchased', 'lastPurchaseDate', 'desc'),
  superlative('most recently bought', 'lastPurchaseDate', 'desc'),
  superlative('bought most recently', 'lastPurchaseDate', 'desc'),
  superlative('purchased most recently', 'lastPurchaseDate', 'desc'),
  superlative('most recently active', 'lastPurchaseDate', 'desc'),
  superlative('most recently created', 'createdAt', 'desc'),
  superlative('most recently added', 'createdAt', 'desc'),
  superlative('newest', 'createdAt', 'desc'),
  superlative('oldest', 'createdAt', 'asc'),
  superlative('earliest', 'createdAt', 'asc'),
  superlative('longest standing', 'createdAt', 'asc'),
  // singular ("the biggest spender", "our largest account"): the noun decides how many (one)
  ...['biggest', 'largest', 'top', 'highest', 'heaviest'].map((adj) => superlative(`${adj} spender`, 'lifetimeValue', 'desc', true)),
  ...['biggest', 'largest', 'best', 'most valuable'].flatMap((adj) => ['customer', 'account', 'client'].map((n) => superlative(`${adj} ${n}`, 'lifetimeValue', 'desc', true))),
];

/** "sorted by X ascending", "by X high to low": the direction after a sort field. */
export const SORT_DIRECTIONS: Array<{ phrase: string[]; direction: SortDirection }> = (
  [
    ['ascending', 'asc'], ['asc', 'asc'], ['descending', 'desc'], ['desc', 'desc'],
    ['highest first', 'desc'], ['largest first', 'desc'], ['biggest first', 'desc'], ['most recent first', 'desc'],
    ['newest first', 'desc'], ['latest first', 'desc'], ['lowest first', 'asc'], ['smallest first', 'asc'],
    ['oldest first', 'asc'], ['earliest first', 'asc'], ['high to low', 'desc'], ['low to high', 'asc'],
    ['a - z', 'asc'], ['z - a', 'desc'], ['a z', 'asc'], ['z a', 'desc'], ['a to z', 'asc'], ['z to a', 'desc'],
  ] as const
).map(([phrase, direction]) => ({ phrase: phrase.split(' '), direction }));

/** Verbs of "sorted by", "ranked by". */
export const SORT_VERBS = new Set(['sorted', 'sort', 'ordered', 'order', 'ranked', 'rank', 'arranged']);

/** Nouns for the people asked about: a count before them is a limit ("25 leads"). */
export const SUBJECT_NOUNS = new Set([
  'customers', 'customer', 'clients', 'client', 'leads', 'lead', 'contacts', 'contact', 'people', 'buyers', 'subscribers', 'prospects',
  'opportunities', 'accounts', 'users', 'records', 'spenders', 'purchasers', 'companies', 'mqls', 'sqls', 'signups', 'members',
  'accts', 'acct', 'ppl', 'folks', 'recipients', 'opps', 'evangelists', 'advocates', 'employees', 'staff',
]);
/** Shorthand and other generic words for the contacts asked about: they add no condition ("accts in ohio"). */
export const GENERIC_NOUNS = [
  'accts', 'acct', 'ppl', 'peeps', 'members', 'member', 'recipients', 'recipient', 'audience', 'cos', 'profiles', 'profile', 'consumers',
  'consumer', 'patrons', 'patron', 'guests', 'households', 'shoppers', 'employees', 'staff', 'workers', 'peoples', 'persons',
];
/** Words after "or" that start a new subject: the OR is between whole clauses ("leads in Spain, or anyone with ..."). */
export const NEW_SUBJECT_WORDS = new Set(['anyone', 'anybody', 'everyone', 'everybody', 'any', 'those', 'someone', 'somebody', 'people', 'contacts', 'ppl', 'accts', 'accounts', 'folks', 'all']);
/** Nouns after "most recent" / "latest" that sort by last purchase date rather than creation. */
export const PURCHASE_NOUNS = new Set(['buyers', 'buyer', 'purchasers', 'purchaser', 'purchases', 'orders', 'shoppers', 'deals', 'transactions', 'spenders']);

// ---------------------------------------------------------------------------------------------------
// Names, e-mail, companies

/** Words that introduce a field's value: "first name is", "country = ", "city of". */
export const VALUE_LINKS = new Set(['is', '=', ':', 'of']);
/** Words that make a name or e-mail test a substring test ("email contains sales"). */
export const CONTAINS_WORDS = new Set(['contains', 'containing', 'includes', 'like']);

/** E-mail providers named as words ("gmail users") → their domain. */
export const EMAIL_PROVIDERS = new Map(Object.entries({
  gmail: 'gmail.com', googlemail: 'gmail.com', yahoo: 'yahoo.com', hotmail: 'hotmail.com', outlook: 'outlook.com',
  icloud: 'icloud.com', aol: 'aol.com', protonmail: 'protonmail.com', proton: 'protonmail.com', msn: 'msn.com', gmx: 'gmx.de',
  yandex: 'yandex.ru',
}));
/** Nouns after a provider that belong to it ("gmail addresses"). */
export const EMAIL_NOUNS = new Set(['users', 'user', 'addresses', 'address', 'emails', 'email', 'accounts', 'account', 'contacts', 'people', 'domain', 'mail', 'mailbox']);

/** Company name suffixes that are not part of the name ("Acme Corp" → "Acme"). */
export const LEGAL_SUFFIXES = new Set([
  'inc', 'corp', 'corporation', 'ltd', 'limited', 'llc', 'gmbh', 'plc', 'ag', 'co', 'sa', 'bv', 'nv', 'pty', 'srl', 'sas', 'llp', 'incorporated',
  'sarl', 'spa', 'ab', 'oy', 'kg', 'ug', 'pte', 'pvt', 'bhd', 'sdn', 'kk', 'aps', 'gbr', 'sl', 'slu', 'ltda', 'sro',
]);
/** "works at X": a company follows for sure. */
export const WORK_VERBS = new Set(['work', 'works', 'working', 'worked', 'employed']);
export const WORK_PREPOSITIONS = new Set(['at', 'for', 'with', 'by']);
/** "employees of X": a company follows if it reads as a name. */
export const STAFF_NOUNS = new Set(['employees', 'staff', 'people', 'team', 'folks', 'contacts', 'everyone', 'anyone']);
export const STAFF_PREPOSITIONS = new Set(['at', 'from', 'of']);
/** "company is X", "employer named X". */
export const COMPANY_WORDS = new Set(['company', 'companies', 'employer', 'organization', 'organisation']);
export const COMPANY_VALUE_LINKS = new Set([...VALUE_LINKS, 'named', 'called', 'contains', 'containing', 'includes', 'like']);

// ---------------------------------------------------------------------------------------------------
// Presence, inactivity, counts

/** "with a company", "has an email": the presence of a field. */
export const HAVE_WORDS = new Set(['with', 'has', 'have', 'having', 'had', 'got']);
/** Words allowed between HAVE_WORDS and the field ("with a valid email"). */
export const HAVE_DETERMINERS = new Set(['a', 'an', 'the', 'any', 'valid', 'their', 'some', 'known']);
/** "inactive for 6 months": no purchase for that long. */
export const INACTIVITY_WORDS = new Set(['inactive', 'dormant', 'lapsed', 'idle', 'churned', 'lapsing', 'stale']);
/** "quit ordering", "stopped buying": lapsed buyers, like "inactive". */
export const QUIT_VERBS = new Set(['quit', 'quitted', 'stopped', 'stop', 'stops', 'ceased']);
export const QUIT_OBJECTS = new Set(['ordering', 'buying', 'purchasing', 'shopping', 'spending', 'transacting']);
/** A period without a length ("for some time", "in a while"): read as the inactivity default. */
export const VAGUE_PERIODS: string[][] = [['for', 'some', 'time'], ['in', 'some', 'time'], ['for', 'a', 'while'], ['in', 'a', 'while'], ['for', 'ages'], ['in', 'ages'], ['for', 'a', 'long', 'time'], ['in', 'a', 'long', 'time'], ['for', 'long']];
export const DURATION_PREPOSITIONS = new Set(['for', 'in', 'since', 'over', 'during', 'within']);
/** "at least one purchase": a count of these nouns means "has purchased". */
export const PURCHASE_COUNT_NOUNS = new Set(['purchase', 'purchases', 'order', 'orders', 'deal', 'deals', 'transactions']);
/** "from A to B", "A - B". */
export const RANGE_SEPARATORS = new Set(['to', '-', 'until', 'through', 'thru']);

// ---------------------------------------------------------------------------------------------------
// Place prepositions

export const PLACE_PREPOSITIONS: string[][] = [
  ['based', 'in'], ['located', 'in'], ['living', 'in'], ['headquartered', 'in'], ['located', 'at'], ['who', 'live', 'in'],
  ['in'], ['from'], ['within'], ['across'], ['throughout'], ['inside'], ['out', 'of'],
  // "whose location is germany", "location = france", "geo: emea": the place is where the contact is
  ['location', 'is', 'in'], ['location', 'is'], ['location', '='], ['location', ':'], ['geo', 'is'], ['geo', '='], ['geo', ':'], ['located', 'is'],
];
/** "country Georgia", "city of Washington": the field said explicitly. */
export const PLACE_FIELD_WORDS = new Map<string, 'country' | 'state' | 'city' | 'region'>([
  ['country', 'country'], ['state', 'state'], ['province', 'state'], ['city', 'city'], ['town', 'city'], ['region', 'region'],
]);
/** After these, an unknown capitalised name is read as a city. */
export const CITY_GUESS_PREPOSITIONS = new Set(['in', 'based in', 'located in', 'living in', 'headquartered in', 'who live in']);

// ---------------------------------------------------------------------------------------------------
// Structure words

export type NegKind = 'not' | 'never' | 'except';
export const NEGATORS = new PhraseTable<NegKind>();
NEGATORS.addAll(['nothing', 'not any'], 'not');
NEGATORS.addAll(['not', 'no', "haven't", 'havent', 'have not', "hasn't", 'hasnt', 'has not', "didn't", 'didnt', 'did not', "don't", 'dont', 'do not', "doesn't", 'doesnt', 'does not', "aren't", 'arent', "isn't", 'isnt', "weren't", "wasn't", 'nor', 'non', 'without', 'missing', 'lacking', 'with no', 'having no', 'who have no', 'zero'], 'not');
// field-like syntax: "country != US", "stage <> lead", "country is not = germany"
NEGATORS.addAll(['!=', '! =', '< >', '<>', '=/=', 'not =', 'not equal to', 'not equals', 'does not equal', 'is not equal to', "isn't equal to"], 'not');
NEGATORS.addAll(['never', 'have never', 'has never', 'had never', 'not yet', 'not ever', 'never ever', 'yet to', 'have yet to', 'has yet to', 'are yet to', 'is yet to'], 'never');
NEGATORS.addAll(['all but', 'everyone but', 'everybody but', 'anyone but', 'all except', 'everyone except', 'everybody except', 'anyone except', 'everything but', 'all of them but'], 'except');
NEGATORS.addAll(['excl', 'excl .', 'exc', 'exc .', 'excluded'], 'except');
// ("no one who's ever bought anything, netherlands", "nobody from acme"; the lexer reads "one" as the number 1)
NEGATORS.addAll(['no one', 'no 1', 'no - one', 'no - 1', 'noone', 'nobody', 'no body'], 'except');
NEGATORS.addAll(['excluding', 'exclude', 'excludes', 'except', 'except for', 'except those', 'but not', 'other than', 'apart from', 'besides', 'minus', 'outside', 'outside of', 'not including', 'leaving out', 'ignoring', 'aside from', 'and not', 'or not'], 'except');

/** Phrases that carry no condition ("show me", "how many"). */
export const MULTI_WORD_FILLERS: string[][] = [
  ['would', 'you', 'mind'], ['do', 'you', 'mind'], ['would', 'it', 'be', 'possible', 'to'], ['i', '.', 'e', '.'], ['e', '.', 'g', '.'], ['i', '.', 'e'], ['e', '.', 'g'],
  ['would', 'like', 'to'], ['would', 'like'], ["i'd", 'like'], ["we'd", 'like'], ["we'd", 'love'], ['we', 'would', 'like'], ['like', 'to', 'see'], ['so', 'far'], ['list', 'of'], ['how', 'many'],
  ['show', 'me'], ['can', 'you'], ['i', 'want'], ['ending', 'in'], ['ending', 'with'], ['end', 'in'], ['that', 'are'], ['who', 'are'],
  ['the', 'number', 'of'], ['number', 'of'], ['count', 'of'],
  // "never purchased till date", "not bought till now": up to now, which every condition already means
  ['till', 'date'], ['till', 'now'], ['until', 'now'], ['till', 'today'], ['until', 'today'], ['as', 'of', 'now'], ['as', 'of', 'today'],
  // "ltv in between 50 thousand to 1 lakh": "between"
  ['in', 'between'],
  // what a hurried request says about itself ("pls do it fast", "do the needful")
  ['do', 'it', 'fast'], ['asap'], ['do', 'the', 'needful'], ['at', 'the', 'earliest'], ['revert', 'with'], ['revert', 'back', 'with'],
  // how a polite request hedges ("if possible sort them by …", "just to be safe, only …", "quick one - could you …")
  ['if', 'possible'], ['where', 'possible'], ['if', 'you', 'can'], ['just', 'to', 'be', 'safe'], ['to', 'be', 'safe'], ['quick', 'one'], ['quick', '1'],
  ['quick', 'favour'], ['quick', 'favor'], ['quick', 'question'], ['quick', 'ask'],
  // who the user knows is who is in the CRM ("who do we know at orbitpeak", "anyone we know in lyon")
  ['do', 'we', 'know'], ['do', 'i', 'know'], ['we', 'know'], ['does', 'anyone', 'know'],
  // where or when they bought: no condition ("spent money at our site", "made a purchase at some point")
  // (not "online", "at our store": the channel of a purchase is not stored, so they are asked about)
  ['at', 'our', 'site'], ['on', 'our', 'site'], ['on', 'our', 'website'], ['at', 'our', 'website'], ['from', 'us'], ['with', 'us'],
  ['at', 'some', 'time'], ['at', 'some', 'point'], ['at', 'any', 'time'], ['at', 'any', 'point'], ['in', 'the', 'past'],
  ['went', 'on', 'to'], ['go', 'on', 'to'], ['goes', 'on', 'to'], ['ended', 'up'], ['the', 'whole', 'list'], ['whole', 'list'],
  ['one', 'of'], ['any', 'of'], ['any', 'of', 'these'], ['one', 'of', 'these'], ['either', 'of'],
  // what the list is called ("I need a target group: …")
  ['target', 'group'], ['target', 'audience'], ['target', 'list'], ['target', 'segment'],
  // where the contacts are kept: no condition ("oldest 15 leads in the system", "everyone on file")
  ['in', 'the', 'system'], ['in', 'our', 'system'], ['in', 'the', 'crm'], ['in', 'our', 'crm'], ['in', 'the', 'database'], ['in', 'our', 'database'],
  // how a stage is said to be recorded ("anyone already marked as a customer", "listed as a lead")
  // "count the leads in illinois", "count all customers": how many, which the answer always says
  ['count', 'the'], ['count', 'all'], ['count', 'up'], ['got', 'any'],
  // a follow-up written to stand alone ("leads in ohio - same but only over 5k ltv", "what about the ones who …")
  ['same', 'but'], ['same', 'as', 'above'], ['what', 'about'], ['how', 'about'],
  ['marked', 'as'], ['labelled', 'as'], ['labeled', 'as'], ['listed', 'as'], ['classified', 'as'], ['flagged', 'as'], ['set', 'as'],
  ['on', 'file'], ['we', 'hold'], ['we', 'keep'], ['we', 'store'], ['in', 'hubspot'], ['in', 'salesforce'], ['in', 'there'],
  // what they bought: no condition, only the last purchase is stored ("purchased any goods", "from our store")
  ['any', 'goods'], ['any', 'items'], ['any', 'products'], ['any', 'product'], ['any', 'item'], ['anything'], ['something'],
  // (bought "from our store" is bought from us; "at our store" may be the shop rather than online, and is asked)
  ['from', 'our', 'store'], ['from', 'our', 'shop'], ['from', 'your', 'store'], ['from', 'your', 'shop'], ['from', 'the', 'store'],
  ['right', 'now'], ['all', 'time'], ['overall'], ['combined'], ['altogether'], ['in', 'all'], ['cumulatively'], ['falls'], ['fell'], ['of', 'all', 'time'], ['over', 'all', 'time'], ['in', 'their', 'lifetime'], ['over', 'their', 'lifetime'], ['lifetime'], ['all', 'told'],
];

/** Nouns that say what a list is for ("for the webinar invite", "for a sunset campaign"). */
export const PURPOSE_NOUNS = new Set([
  'campaign', 'campaigns', 'program', 'programme', 'programs', 'invite', 'invites', 'invitation', 'invitations', 'meetup', 'meetups',
  'event', 'events', 'nudge', 'nudges', 'blast', 'blasts', 'outreach', 'outbound', 'promo', 'promos', 'promotion', 'push', 'sequence',
  'drip', 'survey', 'surveys', 'offer', 'offers', 'mailing', 'mailer', 'announcement', 'studies', 'study', 'referral', 'referrals',
  'winback', 'reactivation', 'engagement', 'upsell', 'upsells', 'nurture', 'nurturing', 'retargeting', 'targeting', 'prospecting',
  'roadshow', 'webinar', 'launch', 'send', 'sends', 'mailshot', 'newsletter', 'follow', 'followup', 'outreaches', 'invite-only',
  'giveaway', 'sunset', 'audit', 'cleanup', 'review', 'report', 'call', 'calls', 'dinner', 'conference', 'gift', 'gifts', 'swag',
  // data work ("for our CCPA data inventory", "candidates for deletion under our retention policy")
  'inventory', 'retention', 'deletion', 'purge', 'compliance', 'migration', 'dedupe', 'qbr', 'qbrs',
  // ("for the welcome email", "welcome series")
  'welcome',
]);
/** Words that open a purpose or a comment ("we could ask for case studies", "ready to be passed to sales"). */
export const PURPOSE_OPENERS: string[][] = [
  ['we', 'could'], ['we', 'can'], ['we', 'should'], ['we', 'might'], ['we', 'want', 'to'], ['we', 'need', 'to'], ['ready', 'to'],
  ['so', 'we', 'can'], ['so', 'that'], ['in', 'order', 'to'], ['to', 'invite'], ['to', 'target'], ['to', 'ask'], ['to', 'send'],
  ['to', 'email'], ['to', 'reach', 'out'], ['to', 'call'], ['to', 'nurture'], ['to', 'upsell'],
  // a reason ("b/c we're doing a summer promo", "because sales asked")
  ['because'], ['bc'], ['cuz'], ['coz'],
];
/** "is blank", "is not set": true = the field has a value. */
export const PRESENCE_STATES = new PhraseTable<boolean>();
PRESENCE_STATES.addAll(['blank', 'empty', 'missing', 'null', 'unset', 'not set', 'none', 'unknown', 'not filled in', 'not provided'], false);
PRESENCE_STATES.addAll(['set', 'present', 'filled', 'filled in', 'populated', 'provided', 'known', 'available', 'not null'], true);

/** Words that grade a verb or an adjective ("very active", "pretty new"): not a verb of their own. */
export const INTENSIFIERS = new Set(['very', 'pretty', 'quite', 'really', 'super', 'so', 'rather', 'fairly', 'extremely', 'highly', 'truly', 'most', 'more', 'less', 'least', 'also', 'still', 'just', 'already', 'ever', 'never', 'recently', 'actually', 'all']);

/**
 * Words that describe contacts without saying what makes them so; the question's own conditions say it, and
 * then they are left out with a note, otherwise they are not understood:
 * - value ("vip", "high-value"): an amount or a ranking by one;
 * - new ("net-new", "greenfield"): a creation date, or never having bought;
 * - lapsed ("slipping away", "win-back"): a last purchase older than a date;
 * - plain ("regular", "normal"): any condition at all, they add nothing;
 * - engagement ("cold", "warm", "hot"): a date of creation or of the last purchase, or whether they bought
 *   ("cold leads (created over a year ago, never bought)").
 */
export type DescriptorKind = 'value' | 'new' | 'lapsed' | 'plain' | 'engagement';
export const VALUE_DESCRIPTORS = new PhraseTable<DescriptorKind>();
VALUE_DESCRIPTORS.addAll(['vip', 'vips', 'high value', 'high ltv', 'high spending', 'top tier', 'big ticket', 'valuable', 'key', 'high worth', 'premium', 'whales', 'whale', 'small', 'big', 'large', 'huge', 'tiny', 'low value', 'low ltv'], 'value');
VALUE_DESCRIPTORS.addAll(['net new', 'greenfield', 'brand new', 'newly acquired'], 'new');
VALUE_DESCRIPTORS.addAll(['slipping away', 'win back', 'winback', 'at risk', 'lost', 'lapsing away', 'gone quiet', 'gone cold'], 'lapsed');
VALUE_DESCRIPTORS.addAll(['regular', 'normal', 'typical', 'ordinary', 'general', 'standard', 'everyday'], 'plain');
VALUE_DESCRIPTORS.addAll(['cold', 'warm', 'hot', 'engaged', 'unengaged', 'disengaged'], 'engagement');

/** "first name starts with a": comparisons there is no operator for (only "is" and "contains"). */
export const NAME_OPERATOR_WORDS = new Set(['starts', 'start', 'starting', 'begins', 'begin', 'beginning', 'ends', 'ending', 'matches', 'sounds']);

/** "at least twice", "bought once": a count of purchases there is no field for. */
export const COUNT_ADVERBS = new Set(['once', 'twice', 'thrice']);

/** Nouns after a season or month that make it a name, not a date ("the summer collection", "the spring sale"). */
export const PERIOD_NAME_NOUNS = new Set([
  'collection', 'collections', 'sale', 'sales', 'campaign', 'campaigns', 'promo', 'promotion', 'catalog', 'catalogue', 'launch', 'newsletter',
  'event', 'events', 'edition', 'line', 'range', 'drop', 'lookbook', 'special', 'specials', 'deal', 'deals', 'offer', 'offers', 'issue', 'release',
]);

/** Punctuation that ends a clause. */
export const CLAUSE_ENDS = new Set([',', ';', '.', '!', '?', '(', ')']);

/** "north america incl. mexico": adds to a list. */
export const INCLUDING_WORDS = new Set(['incl', 'including', 'includes']);

// ("last purchase amount: < USD 100 | ltv: > USD 5k": a pipe separates criteria as a semicolon does)
export const BOUNDARIES = new Set(['who', 'that', 'which', 'whose', 'with', 'where', 'having', 'but', 'whom', ';', '|', 'while', 'plus', 'whilst', 'when']);

/** Words that carry no condition; they are neither conditions nor "unrecognised". */
export const FILLERS = new Set([
  // what dictation writes down of a pause ("um show me all the leads in spain")
  'um', 'umm', 'uh', 'uhh', 'erm', 'hmm',
  'show', 'me', 'list', 'find', 'get', 'give', 'pull', 'display', 'fetch', 'see', 'want', 'need', 'all', 'any', 'every', 'everyone',
  'everybody', 'anyone', 'anybody', 'the', 'a', 'an', 'have', 'has', 'had', 'are', 'is', 'were', 'was', 'been', 'be', 'being', 'do',
  'does', 'did', 'of', 'our', 'my', 'their', 'them', 'they', 'those', 'these', 'people', 'person', 'persons', 'contacts', 'contact',
  'users', 'user', 'accounts', 'account', 'records', 'record', 'folks', 'individuals', 'please', 'can', 'could', 'would', 'you', 'i',
  'we', 'us', 'there', 'here', 'some', 'currently', 'just', 'also', 'only', 'what', 'how', 'many', 'much', 'in', 'at', 'from', 'on',
  'for', 'to', 'by', 'per', 'ones', 'so', 'far', 'yet', 'ever', 'still', 'already', 'anything', 'something', 'made', 'make', 'ending',
  'ends', 'end', 'using', 'use', 'uses', 'via', 'based', 'everything', 'located', 'living', 'live', 'lives', 'spenders', 'spender', 'audience',
  'segment', 'base', 'database', 'crm', 'hubspot', 'let', "let's", 'lets', 'it', 'its', 'both', 'either', 'neither', 'too', 'as',
  'well', 'region', 'regions', 'area', 'territory', 'market', 'country', 'countries', 'state', 'states', 'city', 'cities', 'stage',
  'who', 'that', 'which', 'whose', 'with', 'where', 'having', 'whom', 'and', 'or', 'but', 'while', 'when', '?', '!', '.', ',', ':',
  ';', '(', ')', '-', 'whos', "who's", "who've", "they've", "they're", 'within', 'across', 'throughout', 'into', 'out',
  'addresses', 'address', 'domain', 'domains', 'customers', 'customer', 'clients', 'client', 'anywhere', 'somewhere', 'everywhere',
  // (not "again", "single": "bought again", "a single purchase" count purchases)
  'one', 'even', 'type', 'kind', 'sort', 'bunch', 'set', 'currently', 'now',
  'okay', 'ok', 'hey', 'hi', 'hello', 'thanks', 'thank', 'pls', 'plz', 'r', 'u', 'ur', 'share', 'gimme', 'giv', 'quickly', 'right', 'whole', 'entire', 'full', 'list',
  'listing', 'showing', 'looking', 'look', 'search', 'searching', 'query', 'filter', 'only', 'solely', 'exclusively', 'located',
  'headquartered', 'situated', 'operating', 'registered', 'our', 'my', 'your', 'them', 'such', 'certain', 'specific', 'particular',
  'like to', 'wanna', 'gonna', 'wants', 'retrieve', 'return', 'identify', 'pick', 'select', 'choose', 'grab', 'export', 'email to',
  "i'd", 'id', "i'm", 'im', 'would like', 'like to see', 'tell', 'which ones', 'how many', 'yes', 'been',
  ...GENERIC_NOUNS, 'billing', 'shipping', 'money', 'placed', 'place', 'places', 'ever', 'previously',
  // chat shorthand around a request ("fyi need ppl who …", "tbh just the big ones"), and words that only join
  // ("biggest spenders among our customers", "not bought anymore since march")
  'fyi', 'btw', 'tbh', 'imo', 'among', 'amongst', 'anymore',
  // greetings and thanks ("g'day mate, need …", "hiya, could you …", "cheers", "thx")
  "g'day", 'gday', 'mate', 'cheers', 'hiya', 'heya', 'hii', 'hiii', 'howdy', 'thx', 'ty',
  // the request's verb in other forms ("would you mind pulling …"), and what a group of contacts is called ("cohort of
  // contacts created in Q4", "the Scandi markets")
  'pulling', 'grabbing', 'fetching', 'exporting', 'cohort', 'cohorts', 'markets',
]);

/** Every word the fuzzy matcher may correct a typo to. */
export function vocabulary(): Set<string> {
  const out = new Set<string>();
  const tables: Array<PhraseTable<unknown>> = [PLACES, STAGES, MENTIONS, COMPARATORS_BEFORE, COMPARATORS_AFTER, UNITS, MONTHS, NEGATORS];
  for (const t of tables) for (const w of t.words) if (t !== PLACES || !UNCORRECTED_PLACE_WORDS.has(w)) out.add(w);
  for (const w of FILLERS) for (const x of w.split(' ')) out.add(x);
  for (const w of EXTRA_KEYWORDS) out.add(w);
  for (const w of CUSTOMER_QUALIFIERS) out.add(w);
  // (currencies are words of their own: "usd" is never a typo of "used")
  for (const w of CURRENCY_WORDS) for (const x of w.split(' ')) out.add(x);
  for (const h of HOLIDAYS) for (const w of h.words) out.add(w);
  return out;
}

/** Keywords used directly by the grammar (sorting, dates, companies, names, e-mail providers). */
export const EXTRA_KEYWORDS = [
  'top', 'bottom', 'first', 'limit', 'biggest', 'largest', 'highest', 'lowest', 'smallest', 'best', 'most', 'least', 'valuable',
  'recent', 'recently', 'latest', 'newest', 'oldest', 'sorted', 'ordered', 'ranked', 'sort', 'order', 'rank', 'ascending',
  'descending', 'asc', 'desc', 'alphabetically', 'today', 'yesterday', 'this', 'last', 'past', 'previous', 'prior', 'current',
  'since', 'before', 'after', 'between', 'during', 'ago', 'until', 'till', 'earlier', 'later', 'inactive', 'dormant', 'lapsed',
  'idle', 'churned', 'start', 'beginning', 'date', 'ytd', 'mtd', 'qtd', 'named', 'called', 'work', 'works', 'working', 'employed',
  'employees', 'staff', 'gmail', 'yahoo', 'hotmail', 'outlook', 'icloud', 'aol', 'protonmail', 'proton', 'googlemail', 'live',
  'msn', 'dollars', 'dollar', 'bucks', 'thousand', 'million', 'billion', 'spending', 'anything', 'only', 'paying', 'existing',
  'corp', 'corporation', 'limited', 'gmbh', 'incorporated', 'companies', 'members', 'shoppers', 'deals', 'heaviest', 'earliest',
  'longest', 'standing', 'high', 'low', 'arranged', 'alphabetical', 'contains', 'containing', 'includes', 'including', 'mailbox',
  'worked', 'team', 'valid', 'known', 'lapsing', 'stale', 'through', 'thru', 'inside', 'older', 'newer', 'longer', 'lately',
  'onwards', 'onward', 'number', 'count', 'transactions', 'ends', 'ending', 'equal', 'equals', 'than', 'then', 'more', 'less',
];

/**
 * Geography used by the segmentation engine.
 *
 * Country values are the full English names used in the CRM ("United States", "United Kingdom",
 * "Germany"). Every region below is an explicit list of such canonical names; a condition
 * `region = Europe` means `country IN REGION_COUNTRIES.Europe` (plus the spelling variants of
 * those countries listed in COUNTRY_VARIANTS). Decisions worth knowing:
 *
 * - North America = United States, Canada and the North-Atlantic territories (Greenland, Bermuda,
 *   Saint Pierre and Miquelon). **Mexico is in Latin America**, as in most sales territories.
 * - Europe includes the United Kingdom, Switzerland, Norway, the Balkans, Ukraine, Belarus, Russia and
 *   the South Caucasus (Georgia, Armenia, Azerbaijan). **Turkey is in Middle East & Africa.**
 * - Asia-Pacific includes South Asia (India, Pakistan, Bangladesh, ...), Central Asia, East and
 *   South-East Asia and Oceania (Australia, New Zealand, Pacific islands).
 * - Latin America = Mexico, Central America, the Caribbean and South America.
 * - Middle East & Africa = the Gulf, the Levant, Iran, Iraq, Turkey, Egypt and all of Africa.
 * - "EMEA" is parsed as Europe + Middle East & Africa, "Americas" as North + Latin America.
 * - Every country appears in exactly one region (checked by a unit test).
 */

export const REGIONS = ['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Middle East & Africa'] as const;
export type Region = (typeof REGIONS)[number];

export const REGION_COUNTRIES: Record<Region, readonly string[]> = {
  'North America': ['United States', 'Canada', 'Greenland', 'Bermuda', 'Saint Pierre and Miquelon'],
  Europe: [
    'Albania', 'Andorra', 'Armenia', 'Austria', 'Azerbaijan', 'Belarus', 'Belgium', 'Bosnia and Herzegovina',
    'Bulgaria', 'Croatia', 'Cyprus', 'Czech Republic', 'Denmark', 'Estonia', 'Faroe Islands', 'Finland',
    'France', 'Georgia', 'Germany', 'Gibraltar', 'Greece', 'Guernsey', 'Hungary', 'Iceland', 'Ireland',
    'Isle of Man', 'Italy', 'Jersey', 'Kosovo', 'Latvia', 'Liechtenstein', 'Lithuania', 'Luxembourg', 'Malta',
    'Moldova', 'Monaco', 'Montenegro', 'Netherlands', 'North Macedonia', 'Norway', 'Poland', 'Portugal',
    'Romania', 'Russia', 'San Marino', 'Serbia', 'Slovakia', 'Slovenia', 'Spain', 'Sweden', 'Switzerland',
    'Ukraine', 'United Kingdom', 'Vatican City',
  ],
  'Asia-Pacific': [
    'Afghanistan', 'Australia', 'Bangladesh', 'Bhutan', 'Brunei', 'Cambodia', 'China', 'Fiji', 'Hong Kong',
    'India', 'Indonesia', 'Japan', 'Kazakhstan', 'Kiribati', 'Kyrgyzstan', 'Laos', 'Macau', 'Malaysia',
    'Maldives', 'Marshall Islands', 'Micronesia', 'Mongolia', 'Myanmar', 'Nauru', 'Nepal', 'New Caledonia',
    'New Zealand', 'North Korea', 'Pakistan', 'Palau', 'Papua New Guinea', 'Philippines', 'Samoa', 'Singapore',
    'Solomon Islands', 'South Korea', 'Sri Lanka', 'Taiwan', 'Tajikistan', 'Thailand', 'Timor-Leste', 'Tonga',
    'Turkmenistan', 'Tuvalu', 'Uzbekistan', 'Vanuatu', 'Vietnam',
  ],
  'Latin America': [
    'Antigua and Barbuda', 'Argentina', 'Bahamas', 'Barbados', 'Belize', 'Bolivia', 'Brazil', 'Chile',
    'Colombia', 'Costa Rica', 'Cuba', 'Dominica', 'Dominican Republic', 'Ecuador', 'El Salvador', 'Grenada',
    'Guatemala', 'Guyana', 'Haiti', 'Honduras', 'Jamaica', 'Mexico', 'Nicaragua', 'Panama', 'Paraguay', 'Peru',
    'Puerto Rico', 'Saint Kitts and Nevis', 'Saint Lucia', 'Saint Vincent and the Grenadines', 'Suriname',
    'Trinidad and Tobago', 'Uruguay', 'Venezuela',
  ],
  'Middle East & Africa': [
    'Algeria', 'Angola', 'Bahrain', 'Benin', 'Botswana', 'Burkina Faso', 'Burundi', 'Cameroon', 'Cape Verde',
    'Central African Republic', 'Chad', 'Comoros', 'Democratic Republic of the Congo', 'Djibouti', 'Egypt',
    'Equatorial Guinea', 'Eritrea', 'Eswatini', 'Ethiopia', 'Gabon', 'Gambia', 'Ghana', 'Guinea',
    'Guinea-Bissau', 'Iran', 'Iraq', 'Israel', 'Ivory Coast', 'Jordan', 'Kenya', 'Kuwait', 'Lebanon', 'Lesotho',
    'Liberia', 'Libya', 'Madagascar', 'Malawi', 'Mali', 'Mauritania', 'Mauritius', 'Morocco', 'Mozambique',
    'Namibia', 'Niger', 'Nigeria', 'Oman', 'Palestine', 'Qatar', 'Republic of the Congo', 'Rwanda',
    'Sao Tome and Principe', 'Saudi Arabia', 'Senegal', 'Seychelles', 'Sierra Leone', 'Somalia', 'South Africa',
    'South Sudan', 'Sudan', 'Syria', 'Tanzania', 'Togo', 'Tunisia', 'Turkey', 'Uganda', 'United Arab Emirates',
    'Yemen', 'Zambia', 'Zimbabwe',
  ],
};

/**
 * Other spellings of a canonical country name that are common in CRM data. A condition on a
 * canonical country (directly or through a region) also matches these values, both in the compiled
 * HubSpot request and in the in-memory evaluator.
 */
export const COUNTRY_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  'United States': ['USA', 'US', 'U.S.', 'U.S.A.', 'United States of America'],
  'United Kingdom': ['UK', 'U.K.', 'Great Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  'Czech Republic': ['Czechia'],
  Netherlands: ['The Netherlands', 'Holland'],
  Turkey: ['Türkiye', 'Turkiye'],
  'United Arab Emirates': ['UAE'],
  'South Korea': ['Korea', 'Republic of Korea'],
  'Ivory Coast': ["Côte d'Ivoire", "Cote d'Ivoire"],
  Vietnam: ['Viet Nam'],
  Russia: ['Russian Federation'],
  'North Macedonia': ['Macedonia'],
  Eswatini: ['Swaziland'],
  'Timor-Leste': ['East Timor'],
  Myanmar: ['Burma'],
  'Cape Verde': ['Cabo Verde'],
  'Democratic Republic of the Congo': ['DR Congo', 'DRC'],
};

/** Groups of countries that are not product regions but are common in questions. */
export const COUNTRY_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'European Union': [
    'Austria', 'Belgium', 'Bulgaria', 'Croatia', 'Cyprus', 'Czech Republic', 'Denmark', 'Estonia', 'Finland',
    'France', 'Germany', 'Greece', 'Hungary', 'Ireland', 'Italy', 'Latvia', 'Lithuania', 'Luxembourg', 'Malta',
    'Netherlands', 'Poland', 'Portugal', 'Romania', 'Slovakia', 'Slovenia', 'Spain', 'Sweden',
  ],
  DACH: ['Germany', 'Austria', 'Switzerland'],
  Benelux: ['Belgium', 'Netherlands', 'Luxembourg'],
  Nordics: ['Denmark', 'Finland', 'Iceland', 'Norway', 'Sweden'],
  Scandinavia: ['Denmark', 'Norway', 'Sweden'],
  'Middle East': [
    'Bahrain', 'Egypt', 'Iran', 'Iraq', 'Israel', 'Jordan', 'Kuwait', 'Lebanon', 'Oman', 'Palestine', 'Qatar',
    'Saudi Arabia', 'Syria', 'Turkey', 'United Arab Emirates', 'Yemen',
  ],
  Africa: africaCountries(),
  'South America': [
    'Argentina', 'Bolivia', 'Brazil', 'Chile', 'Colombia', 'Ecuador', 'Guyana', 'Paraguay', 'Peru', 'Suriname',
    'Uruguay', 'Venezuela',
  ],
  ANZ: ['Australia', 'New Zealand'],
  'Gulf states': ['Bahrain', 'Kuwait', 'Oman', 'Qatar', 'Saudi Arabia', 'United Arab Emirates'],
  // the Indian subcontinent as SAARC's South Asia without Afghanistan
  'South Asia': ['India', 'Pakistan', 'Bangladesh', 'Sri Lanka', 'Nepal', 'Bhutan', 'Maldives'],
};

function africaCountries(): string[] {
  const middleEastOnly = new Set([
    'Bahrain', 'Iran', 'Iraq', 'Israel', 'Jordan', 'Kuwait', 'Lebanon', 'Oman', 'Palestine', 'Qatar',
    'Saudi Arabia', 'Syria', 'Turkey', 'United Arab Emirates', 'Yemen',
  ]);
  return REGION_COUNTRIES['Middle East & Africa'].filter((c) => !middleEastOnly.has(c));
}

/** US states (and DC) with their postal codes. */
export const US_STATES: Readonly<Record<string, string>> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO',
  Connecticut: 'CT', Delaware: 'DE', 'District of Columbia': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI',
  Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA', Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA',
  Maine: 'ME', Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS',
  Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ',
  'New Mexico': 'NM', 'New York': 'NY', 'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK',
  Oregon: 'OR', Pennsylvania: 'PA', 'Rhode Island': 'RI', 'South Carolina': 'SC', 'South Dakota': 'SD',
  Tennessee: 'TN', Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA', Washington: 'WA',
  'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY',
};

/** Canadian provinces and territories (stored in the same `state` property). */
export const CANADIAN_PROVINCES: Readonly<Record<string, string>> = {
  Alberta: 'AB', 'British Columbia': 'BC', Manitoba: 'MB', 'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL', 'Nova Scotia': 'NS', Ontario: 'ON', 'Prince Edward Island': 'PE',
  Quebec: 'QC', Saskatchewan: 'SK', 'Northwest Territories': 'NT', Nunavut: 'NU', Yukon: 'YT',
};

/** Spelling variants of a state value: the full name also matches its postal code. */
export function stateVariants(state: string): string[] {
  const code = US_STATES[state] ?? CANADIAN_PROVINCES[state];
  return code ? [state, code] : [state];
}

/** Spelling variants of a city value. Kept deliberately tiny. */
export const CITY_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  'New York': ['New York City', 'NYC'],
};

/** Major cities the parser recognises by name (a capitalised unknown place after "in" is also read as a city). */
export const CITIES: readonly string[] = [
  // North America
  'New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Antonio', 'San Diego',
  'Dallas', 'San Jose', 'Austin', 'Jacksonville', 'San Francisco', 'Columbus', 'Seattle', 'Denver', 'Boston',
  'Nashville', 'Detroit', 'Portland', 'Las Vegas', 'Miami', 'Atlanta', 'Minneapolis', 'Pittsburgh',
  'Baltimore', 'Charlotte', 'Salt Lake City', 'Raleigh', 'Orlando', 'Tampa', 'St. Louis', 'Sacramento',
  'Kansas City', 'Cleveland', 'Cincinnati', 'Indianapolis', 'Milwaukee', 'New Orleans', 'Palo Alto',
  'Toronto', 'Montreal', 'Vancouver', 'Calgary', 'Ottawa', 'Edmonton',
  // Europe
  'London', 'Manchester', 'Birmingham', 'Edinburgh', 'Glasgow', 'Bristol', 'Leeds', 'Liverpool', 'Dublin',
  'Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nice', 'Berlin', 'Munich', 'Hamburg', 'Frankfurt', 'Cologne',
  'Stuttgart', 'Düsseldorf', 'Vienna', 'Zurich', 'Geneva', 'Basel', 'Amsterdam', 'Rotterdam', 'The Hague',
  'Brussels', 'Antwerp', 'Madrid', 'Barcelona', 'Valencia', 'Seville', 'Lisbon', 'Porto', 'Rome', 'Milan',
  'Naples', 'Turin', 'Florence', 'Stockholm', 'Gothenburg', 'Oslo', 'Copenhagen', 'Helsinki', 'Reykjavik',
  'Warsaw', 'Krakow', 'Prague', 'Budapest', 'Bucharest', 'Sofia', 'Athens', 'Belgrade', 'Zagreb', 'Tallinn',
  'Riga', 'Vilnius', 'Kyiv', 'Moscow', 'Saint Petersburg', 'Istanbul',
  // Asia-Pacific
  'Tokyo', 'Osaka', 'Seoul', 'Beijing', 'Shanghai', 'Shenzhen', 'Guangzhou', 'Taipei', 'Bangkok', 'Jakarta',
  'Manila', 'Kuala Lumpur', 'Ho Chi Minh City', 'Hanoi', 'Mumbai', 'Delhi', 'New Delhi', 'Bangalore',
  'Bengaluru', 'Hyderabad', 'Chennai', 'Pune', 'Kolkata', 'Karachi', 'Lahore', 'Dhaka', 'Sydney', 'Melbourne',
  'Brisbane', 'Perth', 'Adelaide', 'Auckland', 'Wellington',
  // Latin America
  'Mexico City', 'Guadalajara', 'Monterrey', 'São Paulo', 'Rio de Janeiro', 'Buenos Aires', 'Santiago',
  'Bogotá', 'Medellín', 'Lima', 'Quito', 'Caracas', 'Montevideo',
  // Middle East & Africa
  'Dubai', 'Abu Dhabi', 'Doha', 'Riyadh', 'Jeddah', 'Tel Aviv', 'Jerusalem', 'Cairo', 'Lagos', 'Nairobi',
  'Johannesburg', 'Cape Town', 'Casablanca', 'Accra', 'Ankara',
];

/** The country of each city of CITIES (lower-case name -> country), for "a city not in the named country". */
export const CITY_COUNTRY: ReadonlyMap<string, string> = (() => {
  const byCountry: Record<string, string[]> = {
    'United States': [
      'New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Antonio', 'San Diego', 'Dallas', 'San Jose',
      'Austin', 'Jacksonville', 'San Francisco', 'Columbus', 'Seattle', 'Denver', 'Boston', 'Nashville', 'Detroit', 'Portland',
      'Las Vegas', 'Miami', 'Atlanta', 'Minneapolis', 'Pittsburgh', 'Baltimore', 'Charlotte', 'Salt Lake City', 'Raleigh', 'Orlando',
      'Tampa', 'St. Louis', 'Sacramento', 'Kansas City', 'Cleveland', 'Cincinnati', 'Indianapolis', 'Milwaukee', 'New Orleans', 'Palo Alto',
    ],
    Canada: ['Toronto', 'Montreal', 'Vancouver', 'Calgary', 'Ottawa', 'Edmonton'],
    'United Kingdom': ['London', 'Manchester', 'Edinburgh', 'Glasgow', 'Bristol', 'Leeds', 'Liverpool'],
    Ireland: ['Dublin'],
    France: ['Paris', 'Lyon', 'Marseille', 'Toulouse'],
    Germany: ['Berlin', 'Munich', 'Hamburg', 'Frankfurt', 'Cologne', 'Stuttgart', 'Düsseldorf'],
    Austria: ['Vienna'],
    Switzerland: ['Zurich', 'Zürich', 'Geneva', 'Basel'],
    Netherlands: ['Amsterdam', 'Rotterdam', 'The Hague'],
    Belgium: ['Brussels', 'Antwerp'],
    Spain: ['Madrid', 'Barcelona', 'Seville'],
    Portugal: ['Lisbon', 'Porto'],
    Italy: ['Rome', 'Milan', 'Naples', 'Turin', 'Florence'],
    Sweden: ['Stockholm', 'Gothenburg'],
    Norway: ['Oslo'],
    Denmark: ['Copenhagen'],
    Finland: ['Helsinki'],
    Iceland: ['Reykjavik'],
    Poland: ['Warsaw', 'Krakow', 'Kraków'],
    'Czech Republic': ['Prague'],
    Hungary: ['Budapest'],
    Romania: ['Bucharest'],
    Bulgaria: ['Sofia'],
    Greece: ['Athens'],
    Serbia: ['Belgrade'],
    Croatia: ['Zagreb'],
    Estonia: ['Tallinn'],
    Latvia: ['Riga'],
    Lithuania: ['Vilnius'],
    Ukraine: ['Kyiv'],
    Russia: ['Moscow', 'Saint Petersburg'],
    Turkey: ['Istanbul', 'Ankara'],
    Japan: ['Tokyo', 'Osaka'],
    'South Korea': ['Seoul'],
    China: ['Beijing', 'Shanghai', 'Shenzhen', 'Guangzhou'],
    Taiwan: ['Taipei'],
    Thailand: ['Bangkok'],
    Indonesia: ['Jakarta'],
    Philippines: ['Manila'],
    Malaysia: ['Kuala Lumpur'],
    Vietnam: ['Ho Chi Minh City', 'Hanoi'],
    India: ['Mumbai', 'Delhi', 'New Delhi', 'Bangalore', 'Bengaluru', 'Hyderabad', 'Chennai', 'Pune', 'Kolkata'],
    Pakistan: ['Karachi', 'Lahore'],
    Bangladesh: ['Dhaka'],
    Australia: ['Sydney', 'Melbourne', 'Brisbane', 'Adelaide'],
    'New Zealand': ['Auckland', 'Wellington'],
    Mexico: ['Mexico City', 'Guadalajara', 'Monterrey'],
    Brazil: ['São Paulo', 'Rio de Janeiro'],
    Argentina: ['Buenos Aires'],
    Colombia: ['Bogotá', 'Medellín'],
    Peru: ['Lima'],
    Ecuador: ['Quito'],
    Venezuela: ['Caracas'],
    Uruguay: ['Montevideo'],
    'United Arab Emirates': ['Dubai', 'Abu Dhabi'],
    Qatar: ['Doha'],
    'Saudi Arabia': ['Riyadh', 'Jeddah'],
    Israel: ['Tel Aviv', 'Jerusalem'],
    Egypt: ['Cairo'],
    Nigeria: ['Lagos'],
    Kenya: ['Nairobi'],
    'South Africa': ['Johannesburg', 'Cape Town'],
    Morocco: ['Casablanca'],
    Ghana: ['Accra'],
  };
  // cities whose name is shared by well-known cities elsewhere have no single country
  const shared = new Set(['Birmingham', 'Valencia', 'Nice', 'Santiago', 'Perth']);
  const out = new Map<string, string>();
  for (const [country, cities] of Object.entries(byCountry)) for (const c of cities) if (!shared.has(c)) out.set(c.toLowerCase(), country);
  return out;
})();

const countryToRegion = new Map<string, Region>();
for (const region of REGIONS) for (const c of REGION_COUNTRIES[region]) countryToRegion.set(c, region);

/** All canonical country names known to the engine. */
export const COUNTRIES: readonly string[] = [...countryToRegion.keys()].sort();

export function regionOfCountry(country: string): Region | undefined {
  return countryToRegion.get(country);
}

/** The canonical name plus its known variants. Unknown names map to themselves. */
export function countryVariants(country: string): string[] {
  return [country, ...(COUNTRY_VARIANTS[country] ?? [])];
}

/** Every country value (canonical and variants) that belongs to a region. */
export function regionCountryValues(region: Region): string[] {
  return REGION_COUNTRIES[region].flatMap(countryVariants);
}

// ---------------------------------------------------------------------------------------------------
// Value expansion shared by the compiler and the evaluator (part of the segment's semantics).

const countryLookup = new Map<string, string>();
for (const c of COUNTRIES) for (const v of countryVariants(c)) countryLookup.set(v.toLowerCase(), c);
const stateLookup = new Map<string, string>();
for (const table of [US_STATES, CANADIAN_PROVINCES]) {
  for (const [name, code] of Object.entries(table)) {
    stateLookup.set(name.toLowerCase(), name);
    stateLookup.set(code.toLowerCase(), name);
  }
}
const cityLookup = new Map<string, string>();
for (const [c, vs] of Object.entries(CITY_VARIANTS)) for (const v of [c, ...vs]) cityLookup.set(v.toLowerCase(), c);

/**
 * The stored values an equality on a place field matches: a known country, state or city matches its
 * canonical name and its spelling variants ("United States" ~ "USA"; "California" ~ "CA"); any other
 * value matches itself only. Compares are case-insensitive everywhere, so case does not matter here.
 */
export function expandPlaceValue(field: 'country' | 'state' | 'city', value: string): string[] {
  const key = value.toLowerCase();
  if (field === 'country') {
    const c = countryLookup.get(key);
    return c ? countryVariants(c) : [value];
  }
  if (field === 'state') {
    const s = stateLookup.get(key);
    return s ? stateVariants(s) : [value];
  }
  const c = cityLookup.get(key);
  return c ? [c, ...(CITY_VARIANTS[c] ?? [])] : [value];
}

/** A place condition as the parser and the clarifier see it (structurally, so this module needs no AST import). */
interface PlaceCondition {
  field: string;
  op: string;
  value?: unknown;
  values?: readonly unknown[];
}

/**
 * The countries a positive place condition allows ("in Texas": the United States; "in Edinburgh or Glasgow": the
 * United Kingdom), or undefined when it is no such condition or a value is not known to us.
 */
export function countriesOfPlace(c: PlaceCondition): Set<string> | undefined {
  const values = c.values ?? (typeof c.value === 'string' ? [c.value] : undefined);
  if (!values || !(c.op === 'eq' || c.op === 'in')) return undefined;
  const out = new Set<string>();
  for (const v of values as string[]) {
    const countries =
      c.field === 'country' ? [v]
      : c.field === 'region' ? REGION_COUNTRIES[v as Region]
      : c.field === 'state' ? (v in US_STATES ? ['United States'] : v in CANADIAN_PROVINCES ? ['Canada'] : undefined)
      : c.field === 'city' ? (CITY_COUNTRY.has(v.toLowerCase()) ? [CITY_COUNTRY.get(v.toLowerCase()) as string] : undefined)
      : undefined;
    if (!countries) return undefined;
    for (const country of countries) out.add(country);
  }
  return out;
}

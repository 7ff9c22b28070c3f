/**
 * Geography tables for the synthetic contact generator: countries (full English names, as HubSpot's
 * `country` property usually holds them), their relative weights, regions (for tests and the product's
 * region filter), top-level divisions (US states by full name, Canadian provinces, ...) and real cities.
 *
 * Weights are relative (they need not sum to 100). They describe a B2B software customer base with a
 * heavy United States share, then Europe, Asia-Pacific, Latin America, Middle East & Africa.
 */

export type Region = 'North America' | 'Europe' | 'Asia Pacific' | 'Latin America' | 'Middle East & Africa';

/** A division (state / province) with its cities; `w` weights the division inside its country. */
export interface Division {
  name: string;
  w: number;
  cities: string[];
}

export interface CountryInfo {
  name: string;
  region: Region;
  /** relative weight of the country in the contact base */
  w: number;
  /** top-level domain used for local company domains */
  tld: string;
  /** where names come from (a faker locale key, or a romanized list key) */
  names: NameSource;
  /** legal suffixes for local company names */
  suffixes: string[];
  /** states/provinces with cities; when absent, `cities` is used and `state` stays empty */
  divisions?: Division[];
  cities?: string[];
}

export type NameSource =
  | 'en_US' | 'en_GB' | 'en_CA' | 'en_AU' | 'en_IN' | 'en_IE' | 'en_ZA' | 'en_NG'
  | 'de' | 'fr' | 'es' | 'es_MX' | 'it' | 'nl' | 'sv' | 'pl' | 'pt_BR'
  | 'ja' | 'ko' | 'zh' | 'sg' | 'he' | 'ar';

const US_DIVISIONS: Division[] = [
  { name: 'California', w: 12, cities: ['Los Angeles', 'San Francisco', 'San Diego', 'San Jose', 'Sacramento', 'Oakland', 'Irvine', 'Palo Alto'] },
  { name: 'Texas', w: 9, cities: ['Houston', 'Austin', 'Dallas', 'San Antonio', 'Fort Worth', 'Plano'] },
  { name: 'New York', w: 7, cities: ['New York', 'Brooklyn', 'Buffalo', 'Rochester', 'Albany'] },
  { name: 'Florida', w: 6.5, cities: ['Miami', 'Orlando', 'Tampa', 'Jacksonville', 'Fort Lauderdale'] },
  { name: 'Illinois', w: 4, cities: ['Chicago', 'Naperville', 'Evanston', 'Springfield'] },
  { name: 'Pennsylvania', w: 4, cities: ['Philadelphia', 'Pittsburgh', 'Harrisburg'] },
  { name: 'Ohio', w: 3.5, cities: ['Columbus', 'Cleveland', 'Cincinnati'] },
  { name: 'Georgia', w: 3.2, cities: ['Atlanta', 'Savannah', 'Alpharetta'] },
  { name: 'North Carolina', w: 3.1, cities: ['Charlotte', 'Raleigh', 'Durham'] },
  { name: 'Michigan', w: 3, cities: ['Detroit', 'Ann Arbor', 'Grand Rapids'] },
  { name: 'New Jersey', w: 2.8, cities: ['Newark', 'Jersey City', 'Princeton', 'Hoboken'] },
  { name: 'Virginia', w: 2.6, cities: ['Arlington', 'Richmond', 'Virginia Beach', 'Reston'] },
  { name: 'Washington', w: 2.6, cities: ['Seattle', 'Bellevue', 'Redmond', 'Spokane', 'Tacoma'] },
  { name: 'Massachusetts', w: 2.6, cities: ['Boston', 'Cambridge', 'Worcester', 'Somerville'] },
  { name: 'Arizona', w: 2.2, cities: ['Phoenix', 'Scottsdale', 'Tucson', 'Tempe'] },
  { name: 'Colorado', w: 2, cities: ['Denver', 'Boulder', 'Colorado Springs'] },
  { name: 'Tennessee', w: 2, cities: ['Nashville', 'Memphis', 'Knoxville'] },
  { name: 'Minnesota', w: 1.8, cities: ['Minneapolis', 'Saint Paul', 'Rochester'] },
  { name: 'Maryland', w: 1.8, cities: ['Baltimore', 'Bethesda', 'Annapolis'] },
  { name: 'Oregon', w: 1.4, cities: ['Portland', 'Eugene', 'Salem'] },
  { name: 'Utah', w: 1.1, cities: ['Salt Lake City', 'Provo', 'Lehi'] },
  { name: 'Missouri', w: 1.6, cities: ['St. Louis', 'Kansas City', 'Springfield'] },
  { name: 'Wisconsin', w: 1.5, cities: ['Milwaukee', 'Madison', 'Green Bay'] },
  { name: 'Indiana', w: 1.5, cities: ['Indianapolis', 'Fort Wayne', 'Carmel'] },
  { name: 'Nevada', w: 0.9, cities: ['Las Vegas', 'Reno', 'Henderson'] },
  { name: 'Connecticut', w: 0.9, cities: ['Hartford', 'Stamford', 'New Haven'] },
  { name: 'Louisiana', w: 0.9, cities: ['New Orleans', 'Baton Rouge'] },
  { name: 'Kentucky', w: 0.8, cities: ['Louisville', 'Lexington'] },
  { name: 'Oklahoma', w: 0.8, cities: ['Oklahoma City', 'Tulsa'] },
  { name: 'Iowa', w: 0.6, cities: ['Des Moines', 'Cedar Rapids'] },
  { name: 'Kansas', w: 0.5, cities: ['Wichita', 'Overland Park'] },
  { name: 'Nebraska', w: 0.4, cities: ['Omaha', 'Lincoln'] },
  { name: 'District of Columbia', w: 0.6, cities: ['Washington'] },
  { name: 'Hawaii', w: 0.3, cities: ['Honolulu'] },
  { name: 'Alaska', w: 0.15, cities: ['Anchorage'] },
];

export const COUNTRIES: CountryInfo[] = [
  // North America
  { name: 'United States', region: 'North America', w: 38, tld: 'com', names: 'en_US', suffixes: ['Inc.', 'LLC', 'Corp.', 'Group'], divisions: US_DIVISIONS },
  {
    name: 'Canada', region: 'North America', w: 5, tld: 'ca', names: 'en_CA', suffixes: ['Inc.', 'Ltd.', 'Corp.'],
    divisions: [
      { name: 'Ontario', w: 5, cities: ['Toronto', 'Ottawa', 'Mississauga', 'Waterloo', 'Hamilton'] },
      { name: 'Quebec', w: 3, cities: ['Montreal', 'Quebec City', 'Laval'] },
      { name: 'British Columbia', w: 2.2, cities: ['Vancouver', 'Victoria', 'Burnaby'] },
      { name: 'Alberta', w: 1.8, cities: ['Calgary', 'Edmonton'] },
      { name: 'Manitoba', w: 0.5, cities: ['Winnipeg'] },
      { name: 'Nova Scotia', w: 0.4, cities: ['Halifax'] },
    ],
  },
  {
    name: 'Mexico', region: 'North America', w: 3, tld: 'com.mx', names: 'es_MX', suffixes: ['S.A. de C.V.', 'S. de R.L.'],
    divisions: [
      { name: 'Ciudad de México', w: 4, cities: ['Mexico City'] },
      { name: 'Jalisco', w: 2, cities: ['Guadalajara', 'Zapopan'] },
      { name: 'Nuevo León', w: 2, cities: ['Monterrey', 'San Pedro Garza García'] },
      { name: 'Puebla', w: 0.8, cities: ['Puebla'] },
      { name: 'Querétaro', w: 0.7, cities: ['Querétaro'] },
    ],
  },
  // Europe
  { name: 'United Kingdom', region: 'Europe', w: 8, tld: 'co.uk', names: 'en_GB', suffixes: ['Ltd', 'PLC', 'Group'], cities: ['London', 'London', 'London', 'Manchester', 'Birmingham', 'Edinburgh', 'Glasgow', 'Bristol', 'Leeds', 'Cambridge', 'Oxford', 'Liverpool'] },
  { name: 'Germany', region: 'Europe', w: 6, tld: 'de', names: 'de', suffixes: ['GmbH', 'AG', 'SE'], cities: ['Berlin', 'Munich', 'Hamburg', 'Frankfurt', 'Cologne', 'Stuttgart', 'Düsseldorf', 'Leipzig'] },
  { name: 'France', region: 'Europe', w: 5, tld: 'fr', names: 'fr', suffixes: ['SAS', 'SA', 'SARL'], cities: ['Paris', 'Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nantes', 'Lille', 'Bordeaux'] },
  { name: 'Spain', region: 'Europe', w: 3, tld: 'es', names: 'es', suffixes: ['S.L.', 'S.A.'], cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville', 'Bilbao', 'Málaga'] },
  { name: 'Italy', region: 'Europe', w: 3, tld: 'it', names: 'it', suffixes: ['S.p.A.', 'S.r.l.'], cities: ['Milan', 'Rome', 'Turin', 'Bologna', 'Florence', 'Naples'] },
  { name: 'Netherlands', region: 'Europe', w: 2.5, tld: 'nl', names: 'nl', suffixes: ['B.V.', 'N.V.'], cities: ['Amsterdam', 'Rotterdam', 'Utrecht', 'The Hague', 'Eindhoven'] },
  { name: 'Sweden', region: 'Europe', w: 1.5, tld: 'se', names: 'sv', suffixes: ['AB'], cities: ['Stockholm', 'Gothenburg', 'Malmö', 'Uppsala'] },
  { name: 'Ireland', region: 'Europe', w: 1.5, tld: 'ie', names: 'en_IE', suffixes: ['Ltd', 'DAC'], cities: ['Dublin', 'Dublin', 'Cork', 'Galway', 'Limerick'] },
  { name: 'Poland', region: 'Europe', w: 1.5, tld: 'pl', names: 'pl', suffixes: ['Sp. z o.o.', 'S.A.'], cities: ['Warsaw', 'Kraków', 'Wrocław', 'Gdańsk', 'Poznań'] },
  { name: 'Belgium', region: 'Europe', w: 1, tld: 'be', names: 'nl', suffixes: ['NV', 'BV', 'SA'], cities: ['Brussels', 'Antwerp', 'Ghent'] },
  { name: 'Switzerland', region: 'Europe', w: 1, tld: 'ch', names: 'de', suffixes: ['AG', 'GmbH', 'SA'], cities: ['Zurich', 'Geneva', 'Basel', 'Lausanne'] },
  { name: 'Denmark', region: 'Europe', w: 0.8, tld: 'dk', names: 'sv', suffixes: ['A/S', 'ApS'], cities: ['Copenhagen', 'Aarhus'] },
  { name: 'Portugal', region: 'Europe', w: 0.8, tld: 'pt', names: 'pt_BR', suffixes: ['Lda.', 'S.A.'], cities: ['Lisbon', 'Porto'] },
  // Asia-Pacific
  { name: 'Japan', region: 'Asia Pacific', w: 3, tld: 'co.jp', names: 'ja', suffixes: ['K.K.', 'Co., Ltd.'], cities: ['Tokyo', 'Tokyo', 'Osaka', 'Yokohama', 'Nagoya', 'Fukuoka', 'Kyoto'] },
  {
    name: 'Australia', region: 'Asia Pacific', w: 3.5, tld: 'com.au', names: 'en_AU', suffixes: ['Pty Ltd'],
    divisions: [
      { name: 'New South Wales', w: 4, cities: ['Sydney', 'Newcastle', 'Parramatta'] },
      { name: 'Victoria', w: 3.5, cities: ['Melbourne', 'Geelong'] },
      { name: 'Queensland', w: 2.2, cities: ['Brisbane', 'Gold Coast'] },
      { name: 'Western Australia', w: 1.2, cities: ['Perth'] },
      { name: 'South Australia', w: 0.8, cities: ['Adelaide'] },
      { name: 'Australian Capital Territory', w: 0.4, cities: ['Canberra'] },
    ],
  },
  {
    name: 'India', region: 'Asia Pacific', w: 4, tld: 'in', names: 'en_IN', suffixes: ['Pvt. Ltd.', 'Ltd.'],
    divisions: [
      { name: 'Karnataka', w: 3, cities: ['Bengaluru', 'Mysuru'] },
      { name: 'Maharashtra', w: 3, cities: ['Mumbai', 'Pune', 'Nagpur'] },
      { name: 'Delhi', w: 2.5, cities: ['New Delhi'] },
      { name: 'Telangana', w: 1.8, cities: ['Hyderabad'] },
      { name: 'Tamil Nadu', w: 1.8, cities: ['Chennai', 'Coimbatore'] },
      { name: 'Haryana', w: 1.2, cities: ['Gurugram'] },
      { name: 'West Bengal', w: 0.8, cities: ['Kolkata'] },
    ],
  },
  { name: 'Singapore', region: 'Asia Pacific', w: 1.5, tld: 'sg', names: 'sg', suffixes: ['Pte. Ltd.'], cities: ['Singapore'] },
  { name: 'China', region: 'Asia Pacific', w: 2, tld: 'cn', names: 'zh', suffixes: ['Co., Ltd.', 'Technology Co., Ltd.'], cities: ['Shanghai', 'Beijing', 'Shenzhen', 'Guangzhou', 'Hangzhou', 'Chengdu'] },
  { name: 'South Korea', region: 'Asia Pacific', w: 1.5, tld: 'co.kr', names: 'ko', suffixes: ['Co., Ltd.', 'Corp.'], cities: ['Seoul', 'Seoul', 'Busan', 'Incheon', 'Seongnam'] },
  { name: 'New Zealand', region: 'Asia Pacific', w: 1, tld: 'co.nz', names: 'en_AU', suffixes: ['Ltd'], cities: ['Auckland', 'Wellington', 'Christchurch'] },
  // Latin America
  {
    name: 'Brazil', region: 'Latin America', w: 3, tld: 'com.br', names: 'pt_BR', suffixes: ['Ltda.', 'S.A.'],
    divisions: [
      { name: 'São Paulo', w: 5, cities: ['São Paulo', 'Campinas'] },
      { name: 'Rio de Janeiro', w: 2.5, cities: ['Rio de Janeiro', 'Niterói'] },
      { name: 'Minas Gerais', w: 1.2, cities: ['Belo Horizonte'] },
      { name: 'Paraná', w: 0.8, cities: ['Curitiba'] },
      { name: 'Rio Grande do Sul', w: 0.8, cities: ['Porto Alegre'] },
    ],
  },
  { name: 'Argentina', region: 'Latin America', w: 1.2, tld: 'com.ar', names: 'es_MX', suffixes: ['S.A.', 'S.R.L.'], cities: ['Buenos Aires', 'Buenos Aires', 'Córdoba', 'Rosario', 'Mendoza'] },
  { name: 'Chile', region: 'Latin America', w: 0.8, tld: 'cl', names: 'es_MX', suffixes: ['SpA', 'S.A.'], cities: ['Santiago', 'Valparaíso', 'Concepción'] },
  { name: 'Colombia', region: 'Latin America', w: 1, tld: 'com.co', names: 'es_MX', suffixes: ['S.A.S.', 'S.A.'], cities: ['Bogotá', 'Medellín', 'Cali', 'Barranquilla'] },
  // Middle East & Africa
  { name: 'United Arab Emirates', region: 'Middle East & Africa', w: 1, tld: 'ae', names: 'ar', suffixes: ['LLC', 'FZ-LLC'], cities: ['Dubai', 'Dubai', 'Abu Dhabi', 'Sharjah'] },
  { name: 'South Africa', region: 'Middle East & Africa', w: 1, tld: 'co.za', names: 'en_ZA', suffixes: ['(Pty) Ltd'], cities: ['Johannesburg', 'Cape Town', 'Durban', 'Pretoria'] },
  { name: 'Israel', region: 'Middle East & Africa', w: 0.8, tld: 'co.il', names: 'he', suffixes: ['Ltd.'], cities: ['Tel Aviv', 'Tel Aviv', 'Jerusalem', 'Haifa', 'Herzliya'] },
  { name: 'Nigeria', region: 'Middle East & Africa', w: 0.6, tld: 'com.ng', names: 'en_NG', suffixes: ['Ltd', 'PLC'], cities: ['Lagos', 'Lagos', 'Abuja', 'Port Harcourt'] },
  { name: 'Egypt', region: 'Middle East & Africa', w: 0.5, tld: 'com.eg', names: 'ar', suffixes: ['S.A.E.', 'LLC'], cities: ['Cairo', 'Alexandria', 'Giza'] },
  { name: 'Saudi Arabia', region: 'Middle East & Africa', w: 0.6, tld: 'com.sa', names: 'ar', suffixes: ['LLC', 'Co.'], cities: ['Riyadh', 'Jeddah', 'Dammam'] },
];

/** Romanized name lists for locales whose faker names are not in Latin script (emails need ASCII). */
export const ROMANIZED_NAMES: Record<'ja' | 'ko' | 'zh' | 'sg' | 'he' | 'ar', { first: string[]; last: string[] }> = {
  ja: {
    first: ['Haruto', 'Yuto', 'Sota', 'Yui', 'Hina', 'Sakura', 'Ren', 'Kaito', 'Aoi', 'Yuna', 'Takashi', 'Hiroshi', 'Kenji', 'Yuki', 'Akiko', 'Naoko', 'Daichi', 'Mei', 'Shota', 'Emi'],
    last: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Matsumoto', 'Inoue', 'Kimura', 'Hayashi', 'Shimizu'],
  },
  ko: {
    first: ['Min-jun', 'Seo-yeon', 'Ji-ho', 'Ha-eun', 'Do-yun', 'Ji-woo', 'Seo-jun', 'Su-bin', 'Hyun-woo', 'Ji-min', 'Young-ho', 'Eun-ji', 'Sung-min', 'Hye-jin'],
    last: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Oh', 'Seo', 'Shin'],
  },
  zh: {
    first: ['Wei', 'Fang', 'Li', 'Na', 'Min', 'Jing', 'Lei', 'Yang', 'Jun', 'Yan', 'Hao', 'Xin', 'Yu', 'Ting', 'Chen', 'Xiaoming', 'Lina', 'Zhiwei'],
    last: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Hu', 'Guo'],
  },
  sg: {
    first: ['Wei Ling', 'Jun Jie', 'Hui Min', 'Kai Xiang', 'Siti', 'Muhammad', 'Priya', 'Rajesh', 'Rachel', 'Daniel', 'Jasmine', 'Marcus', 'Nurul', 'Ethan'],
    last: ['Tan', 'Lim', 'Lee', 'Ng', 'Ong', 'Wong', 'Goh', 'Chua', 'Koh', 'Teo', 'Abdullah', 'Kumar', 'Nair', 'Chan'],
  },
  he: {
    first: ['Noam', 'Yosef', 'Ariel', 'David', 'Tamar', 'Noa', 'Maya', 'Yael', 'Daniel', 'Omer', 'Shira', 'Itai', 'Avigail', 'Eitan'],
    last: ['Cohen', 'Levi', 'Mizrahi', 'Peretz', 'Biton', 'Friedman', 'Dahan', 'Avraham', 'Katz', 'Shapiro', 'Ben-David', 'Goldberg'],
  },
  ar: {
    first: ['Mohammed', 'Ahmed', 'Omar', 'Ali', 'Youssef', 'Khalid', 'Fatima', 'Aisha', 'Mariam', 'Nour', 'Layla', 'Hassan', 'Sara', 'Abdullah', 'Rania', 'Tariq'],
    last: ['Al Mansouri', 'Al Hashimi', 'Hassan', 'Ibrahim', 'Abdullah', 'El-Sayed', 'Mahmoud', 'Al Qahtani', 'Al Otaibi', 'Farouk', 'Nasser', 'Khalil', 'Haddad', 'Saleh'],
  },
};

/** Free-mail domains used by contacts who signed up with a personal address. */
export const PERSONAL_EMAIL_DOMAINS: Array<[string, number]> = [
  ['gmail.com', 55],
  ['yahoo.com', 10],
  ['outlook.com', 12],
  ['hotmail.com', 8],
  ['icloud.com', 8],
  ['proton.me', 2],
  ['aol.com', 2],
  ['gmx.de', 3],
];

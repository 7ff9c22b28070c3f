/**
 * Holidays people date purchases and sign-ups by ("since labor day", "around christmas", "black friday last
 * year"). Their dates come from date-holidays (the US calendar, Boxing Day from the UK's); this file only says
 * which words name which of its holidays. The shopping days after Thanksgiving are counted from it.
 */
import Holidays from 'date-holidays';

type MonthDay = [number, number];

let us: Holidays | undefined;
let gb: Holidays | undefined;
const cache = new Map<string, MonthDay | undefined>();

/** The month and day of a holiday of date-holidays' calendar (`country`) in `year`, by its English name. */
function calendarDay(country: 'US' | 'GB', name: string, year: number): MonthDay | undefined {
  const key = `${country}:${name}:${year}`;
  if (cache.has(key)) return cache.get(key);
  const calendar = country === 'US' ? (us ??= new Holidays('US')) : (gb ??= new Holidays('GB'));
  const found = calendar.getHolidays(year).find((h) => h.name === name);
  const day: MonthDay | undefined = found ? [Number(found.date.slice(5, 7)), Number(found.date.slice(8, 10))] : undefined;
  cache.set(key, day);
  return day;
}

/** The day a number of days after a holiday (Black Friday, Cyber Monday after Thanksgiving). */
function after(country: 'US' | 'GB', name: string, days: number) {
  return (year: number): MonthDay | undefined => {
    const d = calendarDay(country, name, year);
    if (!d) return undefined;
    const t = new Date(Date.UTC(year, d[0] - 1, d[1] + days));
    return [t.getUTCMonth() + 1, t.getUTCDate()];
  };
}
const on = (country: 'US' | 'GB', name: string) => after(country, name, 0);

/** Words (normalised lexer tokens) naming a holiday, longest first where one starts another. */
const NAMES: Array<[string, (year: number) => MonthDay | undefined]> = [
  ['christmas eve', on('US', 'Christmas Eve')],
  ['xmas eve', on('US', 'Christmas Eve')],
  ['christmas day', on('US', 'Christmas Day')],
  ['christmas', on('US', 'Christmas Day')],
  ['xmas', on('US', 'Christmas Day')],
  ['x mas', on('US', 'Christmas Day')],
  ['boxing day', on('GB', 'Boxing Day')],
  ["new year's eve", on('US', "New Year's Eve")],
  ['new years eve', on('US', "New Year's Eve")],
  ['nye', on('US', "New Year's Eve")],
  ["new year's day", on('US', "New Year's Day")],
  ['new years day', on('US', "New Year's Day")],
  ["valentine's day", on('US', "Valentine's Day")],
  ['valentines day', on('US', "Valentine's Day")],
  ["valentine's", on('US', "Valentine's Day")],
  ['valentines', on('US', "Valentine's Day")],
  ['halloween', on('US', 'Halloween')],
  ['thanksgiving day', on('US', 'Thanksgiving Day')],
  ['thanksgiving', on('US', 'Thanksgiving Day')],
  ['black friday', after('US', 'Thanksgiving Day', 1)],
  ['cyber monday', after('US', 'Thanksgiving Day', 4)],
  ['labor day', on('US', 'Labor Day')],
  ['labour day', on('US', 'Labor Day')],
  ['memorial day', on('US', 'Memorial Day')],
  ['independence day', on('US', 'Independence Day')],
  ['fourth of july', on('US', 'Independence Day')],
  ['juneteenth', on('US', 'Juneteenth')],
  ['mlk day', on('US', 'Martin Luther King Jr. Day')],
  ['martin luther king day', on('US', 'Martin Luther King Jr. Day')],
  ['martin luther king jr day', on('US', 'Martin Luther King Jr. Day')],
  ["presidents' day", on('US', "Washington's Birthday")],
  ["president's day", on('US', "Washington's Birthday")],
  ['presidents day', on('US', "Washington's Birthday")],
  ["st patrick's day", on('US', "St. Patrick's Day")],
  ['st patricks day', on('US', "St. Patrick's Day")],
  ["saint patrick's day", on('US', "St. Patrick's Day")],
  ["st paddy's day", on('US', "St. Patrick's Day")],
  ['easter sunday', on('US', 'Easter Sunday')],
  ['easter', on('US', 'Easter Sunday')],
  ["mother's day", on('US', "Mother's Day")],
  ['mothers day', on('US', "Mother's Day")],
  ["father's day", on('US', "Father's Day")],
  ['fathers day', on('US', "Father's Day")],
  ['veterans day', on('US', 'Veterans Day')],
  ["veteran's day", on('US', 'Veterans Day')],
  ['columbus day', on('US', 'Columbus Day')],
];

export const HOLIDAYS: Array<{ words: string[]; day: (year: number) => MonthDay | undefined }> = NAMES.map(([phrase, day]) => ({ words: phrase.split(' '), day }));

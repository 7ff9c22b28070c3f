import { describe, expect, it } from 'vitest';
import { dateOrderEvidence, parseAmount, parseDate } from './values.js';

const ok = (value: number | null) => ({ ok: true, value });
const bad = { ok: false, reason: expect.any(String) };

describe('amounts', () => {
  it.each([
    ['1234.5', 1234.5], ['$1,234.50', 1234.5], ['1.234,50 €', 1234.5], ['EUR 99', 99], ['99 USD', 99], ['(250.00)', -250], ['-75', -75],
    ['−75', -75], ['1 234,5', 1234.5], ['1,5', 1.5], ['0.125', 0.125], ['1,234', 1234], ['2.400', 2400], ['12,345,678', 12345678],
    ['1.234.567,89', 1234567.89], ["1'234.50", 1234.5], ['+42', 42], ['£ 3.50', 3.5], ['R$ 10,00', 10], ['', null], ['  ', null],
  ])('%s', (text, value) => expect(parseAmount(text)).toEqual(ok(value)));

  it.each(['twelve', '1.2.3', '12a', '$', '1,2,3', '--5', '=SUM(A1:A3)', '1e5'])('%s is not an amount', (text) => expect(parseAmount(text)).toEqual(bad));

  it('takes numbers from a workbook as they are', () => {
    expect(parseAmount(1234.56)).toEqual(ok(1234.56));
    expect(parseAmount(null)).toEqual(ok(null));
    expect(parseAmount(true)).toEqual(bad);
  });
});

describe('dates (UTC when the file gives no zone)', () => {
  const utc = (s: string) => Date.parse(s);
  it.each([
    ['2024-03-05', 'MDY', '2024-03-05T00:00:00.000Z'],
    ['2024-03-05T14:22:31.123Z', 'MDY', '2024-03-05T14:22:31.123Z'],
    ['2024-03-05 14:22', 'MDY', '2024-03-05T14:22:00.000Z'],
    ['2024-03-05T14:22:31+02:00', 'MDY', '2024-03-05T12:22:31.000Z'],
    ['03/05/2024', 'MDY', '2024-03-05T00:00:00.000Z'],
    ['03/05/2024', 'DMY', '2024-05-03T00:00:00.000Z'],
    ['5.3.2024', 'DMY', '2024-03-05T00:00:00.000Z'],
    ['3/5/24 1:45 PM', 'MDY', '2024-03-05T13:45:00.000Z'],
    ['31/12/2025', 'DMY', '2025-12-31T00:00:00.000Z'],
    ['Mar 5, 2024', 'DMY', '2024-03-05T00:00:00.000Z'],
    ['Tue, March 5th, 2024', 'DMY', '2024-03-05T00:00:00.000Z'],
    ['5 March 2024', 'MDY', '2024-03-05T00:00:00.000Z'],
    ['05-Mar-2024 08:00', 'MDY', '2024-03-05T08:00:00.000Z'],
    ['2024/03/05', 'DMY', '2024-03-05T00:00:00.000Z'],
    ['1709647351123', 'MDY', '2024-03-05T14:02:31.123Z'],
  ] as const)('%s (%s)', (text, order, iso) => expect(parseDate(text, order)).toEqual(ok(utc(iso))));

  it.each(['not a date', '31/12/2025', '2024-02-30', '2024-13-01', '12:00', '0000-01-01', '2024-03-05 25:00', '13/13/2024'])('%s is not a date (MDY)', (text) =>
    expect(parseDate(text, 'MDY')).toEqual(bad),
  );

  it('reads workbook dates and Excel serial day numbers', () => {
    expect(parseDate(new Date(Date.UTC(2026, 0, 15)), 'MDY')).toEqual(ok(Date.UTC(2026, 0, 15)));
    expect(parseDate(46054, 'MDY')).toEqual(ok(Date.UTC(2026, 1, 1)));
    expect(parseDate(-3, 'MDY')).toEqual(bad);
  });

  it('tells day-first from month-first by the values that only read one way', () => {
    expect(dateOrderEvidence(['31/12/2025', '01/02/2026', '2026-01-01'])).toEqual({ dmy: 1, mdy: 0 });
    expect(dateOrderEvidence(['12/31/2025', '5/6/2026'])).toEqual({ dmy: 0, mdy: 1 });
  });
});

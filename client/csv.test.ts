import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, customersToCsv } from './csv.js';

describe('customer CSV', () => {
  it('quotes commas, quotes and newlines, doubling quotes', () => {
    const csv = customersToCsv([{ id: '1', firstName: 'Ann, "Jr"', lastName: 'Lee\nSmith', lifetimeValue: 5000, email: null }]);
    const [header, line] = csv.split(/\n(?=1,)/);
    expect(header.split(',')[0]).toBe('id');
    expect(line).toContain('"Ann, ""Jr"""');
    expect(line).toContain('"Lee\nSmith"');
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ id: '1', firstName: 'Ann, "Jr"', lastName: 'Lee\nSmith', lifetimeValue: '5000', email: '' });
  });

  it('neutralises cells a spreadsheet would run, and only text cells', () => {
    for (const v of ['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx']) expect(csvCell(v)).toBe(`'${v}`);
    expect(csvCell(-5)).toBe(-5);
    expect(csvCell('Acme')).toBe('Acme');
    const rows = parse(customersToCsv([{ id: '2', company: '=HYPERLINK("x")' }]), { columns: true }) as Record<string, string>[];
    expect(rows[0].company).toBe(`'=HYPERLINK("x")`);
  });

  it('starts a file with the UTF-8 byte-order mark Excel needs, and nothing else with it', () => {
    const file = customersToCsv([{ id: '3', firstName: 'Zoë', city: 'Zürich' }], { bom: true });
    expect(file.startsWith('\uFEFFid,firstName,')).toBe(true);
    expect([...new TextEncoder().encode(file).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect((parse(file, { columns: true, bom: true }) as Record<string, string>[])[0]).toMatchObject({ id: '3', firstName: 'Zoë', city: 'Zürich' });
    expect(customersToCsv([]).startsWith('id,')).toBe(true);
  });
});

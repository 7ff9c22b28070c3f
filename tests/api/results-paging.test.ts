// A query's customers connection pages every way the results table needs (issue 25): forwards,
// backwards (last/before, last alone from the end), by page number (offset), sorted by a column on
// the server over every stored row, with the table's filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedUser } from '../helpers/crm.js';
import { startTestApp, type Client, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let c: Client;
let id: string;
let all: { id: string; lastName: string | null; lifetimeValue: number | null; lastPurchaseDate: string | null; country: string | null }[];
beforeAll(async () => {
  t = await startTestApp({ SANDBOX_CONTACTS: '400' });
  ({ c } = await connectedUser(t.app, t.url));
  const run = await c.gql('mutation { runQuery(input: { naturalLanguage: "contacts with lifetime value over $100" }) { query { id } } }');
  id = run.data.runQuery.query.id;
  all = await everything('');
  expect(all.length).toBeGreaterThan(100);
});
afterAll(async () => {
  await t?.close();
});

const FIELDS = 'id lastName lifetimeValue lastPurchaseDate country';
async function connection(args: string) {
  const r = await c.gql(`query($id: ID!) { node(id: $id) { ... on CustomerQuery { customers(${args}) { totalCount edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`, { id });
  if (r.errors) return { errors: r.errors as { message: string }[] };
  return r.data.node.customers as { totalCount: number; edges: { cursor: string; node: (typeof all)[number] }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string } };
}
async function customers(args: string) {
  const r = await connection(args);
  if ('errors' in r) throw new Error(r.errors[0].message);
  return r.edges.map((e) => e.node);
}
/** Every stored row, 100 at a time. */
async function everything(args: string) {
  const rows: typeof all = [];
  for (;;) {
    const page = await customers(`first: 100, offset: ${rows.length}${args}`);
    rows.push(...page);
    if (page.length < 100) return rows;
  }
}
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('the customers connection', () => {
  it('pages backwards: the last page alone, then the page before it by its start cursor', async () => {
    const lastSize = all.length % 10 || 10;
    const last = await connection('last: ' + lastSize);
    if ('errors' in last) throw new Error('refused');
    expect(ids(last.edges.map((e) => e.node))).toEqual(ids(all.slice(-lastSize)));
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    const before = await customers(`last: 10, before: "${last.pageInfo.startCursor}"`);
    expect(ids(before)).toEqual(ids(all.slice(-lastSize - 10, -lastSize)));
  });

  it('pages forwards by cursor and by page number (offset)', async () => {
    const first = await connection('first: 10');
    if ('errors' in first) throw new Error('refused');
    expect(ids(await customers(`first: 10, after: "${first.pageInfo.endCursor}"`))).toEqual(ids(all.slice(10, 20)));
    expect(ids(await customers('first: 10, offset: 30'))).toEqual(ids(all.slice(30, 40)));
    expect(ids(await customers('first: 10, offset: 0'))).toEqual(ids(all.slice(0, 10)));
    expect(await customers(`first: 10, offset: ${all.length}`)).toEqual([]);
  });

  it('refuses a negative offset, and an offset with a cursor', async () => {
    expect(await connection('first: 10, offset: -1')).toMatchObject({ errors: [{ message: expect.stringMatching(/offset must be between 0/) }] });
    const first = await connection('first: 10');
    if ('errors' in first) throw new Error('refused');
    expect(await connection(`first: 10, offset: 10, after: "${first.pageInfo.endCursor}"`)).toMatchObject({ errors: [{ message: 'Use offset or after/before, not both' }] });
  });

  it('sorts every stored row by a column on the server, empty values last, ties in the CRM order', async () => {
    const byLtv = (dir: 1 | -1) =>
      [...all].sort((a, b) => (a.lifetimeValue === null ? 1 : b.lifetimeValue === null ? -1 : dir * (a.lifetimeValue - b.lifetimeValue)) || all.indexOf(a) - all.indexOf(b));
    const desc = await everything(', orderBy: { field: lifetimeValue, direction: desc }');
    expect(ids(desc)).toEqual(ids(byLtv(-1)));
    // The second page of the sorted rows is the second ten of all of them, not a sort of a page.
    expect(ids(await customers('first: 10, offset: 10, orderBy: { field: lifetimeValue, direction: asc }'))).toEqual(ids(byLtv(1).slice(10, 20)));
    const dates = (await everything(', orderBy: { field: lastPurchaseDate, direction: desc }')).map((r) => r.lastPurchaseDate);
    const set = dates.filter((d) => d !== null) as string[];
    expect(set).toEqual([...set].sort().reverse());
    expect(dates.slice(set.length).every((d) => d === null)).toBe(true);
    const names = (await everything(', orderBy: { field: name, direction: asc }')).map((r) => r.lastName).filter((n) => n !== null) as string[];
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('sorts within the filters', async () => {
    const eu = await customers('first: 100, filter: { region: "Europe" }, orderBy: { field: location, direction: asc }');
    const all = await customers('first: 100, filter: { region: "Europe" }');
    expect(new Set(ids(eu))).toEqual(new Set(ids(all)));
    const countries = eu.map((r) => r.country as string);
    expect(countries).toEqual([...countries].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

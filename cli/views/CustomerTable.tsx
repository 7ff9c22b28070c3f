// Customers as the product shows them (spec §2 "Customer table display"): name falling back to the
// email's local part, then "Unknown"; money in USD without decimals, "-" when empty; "Jan 5, 2025".
import { displayName, formatDate, formatMoney } from '../../client/format.js';
import { graphql } from '../graphql.js';
import type { CustomerTable_customer$data } from '../__generated__/CustomerTable_customer.graphql.js';
import { Table, type Column } from './Table.js';

export const CustomerTableFragment = graphql`
  fragment CustomerTable_customer on Customer {
    id
    firstName
    lastName
    email
    company
    lifecycleStage
    lastPurchaseDate
    lastPurchaseAmount
    lifetimeValue
    city
    state
    country
  }
`;

export type CustomerRow = Omit<CustomerTable_customer$data, ' $fragmentType'>;

const STAGE_COLORS: Record<string, string> = { customer: 'green', opportunity: 'cyan', lead: 'yellow', subscriber: 'blue' };

const location = (c: CustomerRow) => [c.city, c.country].filter(Boolean).join(', ');

// Narrow terminals first lose the company, then the location, the last purchase and the stage: at
// 60 columns name, email and lifetime value remain. Piped, the CRM id leads and values are plain.
export const CUSTOMER_COLUMNS: Column<CustomerRow>[] = [
  { header: 'ID', cell: (c) => c.id, pipedOnly: true },
  { header: 'Name', cell: (c) => displayName(c), min: 16 },
  { header: 'Email', cell: (c) => c.email ?? '-', value: (c) => c.email, min: 20 },
  { header: 'Company', cell: (c) => c.company ?? '-', value: (c) => c.company, min: 12, optional: 4 },
  { header: 'Stage', cell: (c) => c.lifecycleStage, min: 11, optional: 1, color: (c) => STAGE_COLORS[c.lifecycleStage] },
  { header: 'Location', cell: (c) => location(c) || '-', value: location, min: 12, optional: 3 },
  { header: 'Last purchase', cell: (c) => formatDate(c.lastPurchaseDate), value: (c) => c.lastPurchaseDate, min: 13, optional: 2 },
  { header: 'Lifetime value', cell: (c) => formatMoney(c.lifetimeValue), value: (c) => c.lifetimeValue, align: 'right', min: 14 },
];

export function CustomerTable({ customers, width }: { customers: readonly CustomerRow[]; width: number }) {
  return <Table columns={CUSTOMER_COLUMNS} rows={customers} width={width} />;
}

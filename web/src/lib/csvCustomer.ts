// The customer fields a CSV download asks for: the columns of client/csv.ts, in one fragment for every
// download (a query's export, a smart segment's customer list).
import { graphql, readInlineData } from 'relay-runtime';
import type { CsvCustomer } from '../../../client/csv.js';
import type { csvCustomer_customer$key } from '../__generated__/csvCustomer_customer.graphql';

const fragment = graphql`
  fragment csvCustomer_customer on Customer @inline {
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

/** A customer's CSV fields from a Relay response that spread `...csvCustomer_customer`. */
export const readCsvCustomer = (key: csvCustomer_customer$key): CsvCustomer => readInlineData(fragment, key);

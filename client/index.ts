// What the web app and the CLI share: the GraphQL transport, the error type, global ids.
export { createTransport, type Transport, type TransportOptions, type GraphQLResponse } from './transport.js';
export { GraphQLClientError, fromGraphQLErrors, networkError, isClientError, type GraphQLErrorShape } from './errors.js';
export { toGlobalId, fromGlobalId } from './global-id.js';
export { customersToCsv, csvHeader, csvRows, csvCell, CUSTOMER_COLUMNS, type CsvCustomer } from './csv.js';

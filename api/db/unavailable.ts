// Whether an error means "the database cannot be reached right now" (restarted, connection killed,
// refused, pool exhausted) rather than a bug or a bad statement. Such errors are answered 503
// SERVICE_UNAVAILABLE (api/errors.ts): the client may retry, and nothing was half-done because every
// multi-statement write is one transaction, rolled back by the server when its connection dies.
//
// The shapes differ by layer: Prisma's connection codes (P1001 can't reach, P1017 closed, P2024 pool
// timeout), a PostgreSQL SQLSTATE carried by the pg driver adapter (class 08 connection exception,
// 57P01-57P03 admin/crash shutdown, cannot connect now), Node socket codes, and pg's own messages for
// a client whose connection broke mid-transaction.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const SQLSTATE = /^(08\d{3}|57P0[1-3])$/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const MESSAGES =
  /Connection terminated|connection error and is not queryable|terminating connection due to|Can't reach database server|server closed the connection|Connection closed|Client was closed and is not queryable/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  if (typeof e.code === 'string' && (PRISMA_CODES.has(e.code) || SQLSTATE.test(e.code) || SOCKET_CODES.has(e.code))) return true;
  if (typeof e.originalCode === 'string' && SQLSTATE.test(e.originalCode)) return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.meta?.driverAdapterError?.cause, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

// Request-body limits, enforced as the bytes arrive: a declared Content-Length over the limit is
// refused before any of the body is read, and a streamed (chunked) body is read only up to the limit.
// Either way the answer is 413 with `Connection: close` (the rest of the body is never read, so the
// connection cannot carry another request; the client opens a fresh one).
//
// REST: REST_BODY_LIMIT_BYTES for every route, except the routes declared in BODY_LIMIT_OVERRIDES
// (method and Hono path pattern; the first match wins). /graphql: GRAPHQL_BODY_LIMIT_BYTES
// (graphql-endpoint.ts, which serves the node request straight into Yoga).
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PatternRouter } from 'hono/router/pattern-router';
import { AppError, restBody } from '../errors.js';

const KB = 1024;
const MB = 1024 * KB;

export interface BodyLimitOverride {
  method: string;
  /** A Hono path pattern (`/api/files/:id`, `/api/uploads/*`). */
  path: string;
  maxBytes: number;
  /** How the refusal names the body ("Webhook body is larger than 1 MB"). */
  label?: string;
  /**
   * The handler reads the body as a stream (a file upload): it is counted as it passes, never held. A
   * declared Content-Length over the limit is refused before reading; otherwise reading the body fails
   * with PAYLOAD_TOO_LARGE as soon as it passes the limit, and the handler's error answers 413.
   */
  streamed?: boolean;
}

/** Routes that need a limit of their own (larger or smaller than REST_BODY_LIMIT_BYTES). */
export const BODY_LIMIT_OVERRIDES: readonly BodyLimitOverride[] = [
  // Paddle's largest events (a transaction with many items) stay well under 1 MB.
  { method: 'POST', path: '/api/paddle/webhook', maxBytes: 1 * MB, label: 'Webhook body' },
  // A contacts file (CSV or Excel), streamed into the database as it arrives (services/contact-imports).
  { method: 'POST', path: '/api/crm/imports', maxBytes: 200 * MB, label: 'The file', streamed: true },
];

/** 1048576 → "1 MB", 262144 → "256 kB". */
export function formatBytes(bytes: number): string {
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= KB) return `${Math.round((bytes / KB) * 10) / 10} kB`;
  return `${bytes} bytes`;
}

export const payloadTooLarge = (maxBytes: number, label = 'The request body') =>
  new AppError('PAYLOAD_TOO_LARGE', `${label} is larger than ${formatBytes(maxBytes)}`, { title: 'Payload too large' });

/** The REST middleware: each request's limit (its route's, else the default), streamed by Hono's bodyLimit. */
export function restBodyLimit(defaultBytes: number, overrides: readonly BodyLimitOverride[] = BODY_LIMIT_OVERRIDES): MiddlewareHandler {
  const router = new PatternRouter<BodyLimitOverride>();
  for (const o of overrides) router.add(o.method, o.path, o);
  const limiters = new Map<BodyLimitOverride | null, MiddlewareHandler>();
  const limiterFor = (o: BodyLimitOverride | null) => {
    let limiter = limiters.get(o);
    if (!limiter) {
      const maxSize = o?.maxBytes ?? defaultBytes;
      limiter = o?.streamed
        ? streamedBodyLimit(maxSize, o.label)
        : bodyLimit({ maxSize, onError: (c: Context) => refuse(c, payloadTooLarge(maxSize, o?.label)) });
      limiters.set(o, limiter);
    }
    return limiter;
  };
  return (c, next) => {
    const [matches] = router.match(c.req.method, c.req.path);
    return limiterFor(matches[0]?.[0] ?? null)(c, next);
  };
}

/**
 * A limit for a handler that streams the body (Hono's bodyLimit would buffer a chunked body whole): the
 * body becomes a counting stream that fails with PAYLOAD_TOO_LARGE past `maxBytes`.
 */
function streamedBodyLimit(maxBytes: number, label?: string): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    const declared = Number(raw.headers.get('content-length'));
    if (!raw.headers.has('transfer-encoding') && Number.isFinite(declared) && declared > maxBytes) return refuse(c, payloadTooLarge(maxBytes, label));
    if (raw.body) {
      let size = 0;
      const counted = raw.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.length;
            if (size > maxBytes) controller.error(payloadTooLarge(maxBytes, label));
            else controller.enqueue(chunk);
          },
        }),
      );
      c.req.raw = new Request(raw, { body: counted, duplex: 'half' } as RequestInit);
    }
    await next();
    // the rest of a refused body is never read: the connection cannot carry another request
    if (c.res.status === 413) c.res.headers.set('Connection', 'close');
  };
}

function refuse(c: Context, err: AppError) {
  c.header('Connection', 'close');
  return c.json(restBody(err), 413);
}

/**
 * Reads a node request's body up to `maxBytes`: a declared Content-Length over it is refused before
 * reading, a streamed body as soon as it passes it (what was read is dropped, the rest never read).
 * Resolves with the body, or throws PAYLOAD_TOO_LARGE.
 */
export function readBodyWithin(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (!req.headers['transfer-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(payloadTooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        chunks.length = 0;
        reject(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err?: Error) => {
      cleanup();
      reject(err ?? new Error('The client closed the request before its body ended'));
    };
    const onClose = () => onError();
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

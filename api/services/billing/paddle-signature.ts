// Paddle webhook authentication and parsing, done by the official SDK (@paddle/paddle-node-sdk).
// `Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`. The SDK's
// WebhooksValidator recomputes the HMAC over the raw body text and rejects a timestamp more than
// 5 seconds in the past (Paddle's documented replay window; Paddle signs every delivery attempt
// afresh, so retries are not affected). It reads the real clock, not an injected one, and it does
// not bound timestamps in the future; we add that bound (same 5 s) before calling it, so a
// signature is accepted only inside [ts - 5 s, ts + 5 s] of the server clock.
import { Environment, LogLevel, Paddle, Webhooks, type EventEntity } from '@paddle/paddle-node-sdk';
import { z } from 'zod';
import { AppError } from '../../errors.js';

/** Paddle's (and the SDK's) tolerance for the signature timestamp, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 5;

// The webhook helper needs no API key; constructing Paddle initialises the SDK's Node crypto
// provider and keeps its console logger silent.
let sdk: Paddle | undefined;
function paddle(): Paddle {
  sdk ??= new Paddle('', { environment: Environment.sandbox, logLevel: LogLevel.none });
  return sdk;
}

const invalid = (message: string) => new AppError('UNAUTHENTICATED', message, { title: 'Invalid signature' });

/** The `ts` of a Paddle-Signature header, or null when the header is not of the documented form. */
export function signatureTimestamp(header: string): number | null {
  const ts = header
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([k]) => k === 'ts')?.[1];
  return ts && /^\d{1,12}$/.test(ts) ? Number(ts) : null;
}

/**
 * Throws UNAUTHENTICATED (401) unless `header` is a valid, fresh Paddle signature of `rawBody`
 * under `secret`. `rawBody` must be the request body exactly as received.
 */
export async function verifyPaddleSignature(rawBody: string, header: string | undefined, secret: string, nowMs = Date.now()): Promise<void> {
  if (!header?.trim()) throw invalid('Missing Paddle-Signature header');
  const ts = signatureTimestamp(header);
  if (ts === null || !/(^|;)\s*h1=[0-9a-f]+/i.test(header)) throw invalid('Malformed Paddle-Signature header');
  const ageSeconds = nowMs / 1000 - ts;
  if (ageSeconds > SIGNATURE_TOLERANCE_SECONDS || ageSeconds < -SIGNATURE_TOLERANCE_SECONDS) {
    throw invalid('Paddle-Signature timestamp is outside the allowed window');
  }
  let valid = false;
  try {
    valid = await paddle().webhooks.isSignatureValid(rawBody, secret, header);
  } catch {
    valid = false; // the SDK throws on headers it cannot parse
  }
  if (!valid) throw invalid('Paddle-Signature verification failed');
}

const envelopeSchema = z.object({
  event_id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(100),
  occurred_at: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});

export interface ParsedPaddleEvent {
  /** The payload as JSON (stored as webhook_data). */
  payload: Record<string, unknown>;
  /** The SDK's typed event (camelCase entities). */
  event: EventEntity;
  occurredAt: Date;
}

/** Parses a verified body into the SDK's event entity; BAD_USER_INPUT (400) if it is not a Paddle event. */
export function parsePaddleEvent(rawBody: string): ParsedPaddleEvent {
  const bad = (detail: string) => new AppError('BAD_USER_INPUT', `Not a Paddle event: ${detail}`, { title: 'Invalid webhook payload' });
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw bad('body is not JSON');
  }
  const envelope = envelopeSchema.safeParse(payload);
  if (!envelope.success) throw bad(envelope.error.issues.map((i) => i.path.join('.') || 'body').join(', '));
  let event: EventEntity;
  try {
    event = Webhooks.fromJson(payload as Parameters<typeof Webhooks.fromJson>[0]);
  } catch {
    throw bad(`data does not match the ${envelope.data.event_type} shape`);
  }
  return { payload: payload as Record<string, unknown>, event, occurredAt: new Date(envelope.data.occurred_at) };
}

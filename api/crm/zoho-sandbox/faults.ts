/**
 * Test-only fault injection for the Zoho sandbox: the HubSpot sandbox's switchboard (same kinds, same
 * rules: latency, server-error, rate-limit, connection-reset, slow-body, truncated-json, expired-token)
 * answering with Zoho's bodies. Faults exist only when a `ZohoSandboxFaults` is passed to
 * `createZohoSandbox({ faults })` from code; nothing over HTTP switches one on, and the product's own
 * sandbox (mounted at /zoho-sandbox) is created without one. By default rules apply to the CRM API
 * (`/api/<dc>/crm/v7/…`); give `path` to fault the accounts server.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { FAULT_KINDS, SandboxFaults, type FaultKind, type FaultRule } from '../hubspot-sandbox/faults.js';

export { FAULT_KINDS, type FaultKind, type FaultRule };

export const ZOHO_API_PATHS = /\/api\/[a-z]{2}\/crm\/v\d+\//;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorBody = (code: string, message: string) => ({ code, details: {}, message, status: 'error' });

export class ZohoSandboxFaults extends SandboxFaults {
  override inject(rule: FaultRule): this {
    return super.inject({ path: ZOHO_API_PATHS, ...rule });
  }

  override middleware(): MiddlewareHandler {
    return async (c, next) => {
      if (ZOHO_API_PATHS.test(c.req.path)) this.requests++;
      const rule = this.pick(c.req.path);
      if (!rule) return next();
      return apply(rule, c, next);
    };
  }
}

async function apply(rule: FaultRule, c: Context, next: () => Promise<void>): Promise<Response | void> {
  switch (rule.kind) {
    case 'latency':
      await sleep(rule.latencyMs ?? 200);
      return next();
    case 'server-error':
      return c.json(errorBody('INTERNAL_ERROR', 'Internal Server Error'), (rule.status ?? 500) as 500);
    case 'rate-limit':
      return c.json(
        { code: 'TOO_MANY_REQUESTS', details: { limit_type: 'concurrency' }, message: 'The number of concurrent requests exceeds the limit', status: 'error' },
        429,
        rule.retryAfterSeconds !== undefined ? { 'Retry-After': String(rule.retryAfterSeconds) } : {},
      );
    case 'expired-token':
      return c.json(errorBody('INVALID_TOKEN', 'invalid oauth token'), 401);
    case 'connection-reset': {
      const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
      if (socket) {
        socket.destroy();
        return new Response(null, { status: 500 });
      }
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.error(new Error('connection reset (injected)'));
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    }
    case 'slow-body':
    case 'truncated-json': {
      await next();
      const res = c.res;
      const text = await res.text();
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      c.res = undefined as unknown as Response;
      if (rule.kind === 'truncated-json') {
        c.res = new Response(text.slice(0, Math.floor(text.length / 2)), { status: res.status, headers });
        return;
      }
      const bytes = new TextEncoder().encode(text);
      const chunk = Math.max(1, Math.ceil(bytes.length / 20));
      const delay = rule.chunkDelayMs ?? 100;
      let at = 0;
      c.res = new Response(
        new ReadableStream({
          async pull(controller) {
            if (at >= bytes.length) return controller.close();
            await sleep(delay);
            controller.enqueue(bytes.slice(at, (at += chunk)));
          },
        }),
        { status: res.status, headers },
      );
      return;
    }
  }
}

export function createZohoSandboxFaults(): ZohoSandboxFaults {
  return new ZohoSandboxFaults();
}

/**
 * Test-only fault injection for the Salesforce sandbox: the HubSpot sandbox's fault modes with
 * Salesforce's answers, so tests can check what the product does when the org misbehaves.
 *
 * Reachability: faults exist only when a `SandboxFaults` object is passed to
 * `createSalesforceSandbox({ faults })` / `startSalesforceSandboxServer({ faults })` from code. No route,
 * header, environment variable or configuration turns them on, and the sandbox the product mounts is
 * created without one.
 */
import type { Context, MiddlewareHandler } from 'hono';

export type FaultKind =
  /**
   * wait `latencyMs` before answering normally; on a REST API call the wait happens once the call is
   * admitted, so it holds a concurrent-request slot as a slow org does
   */
  | 'latency'
  /** answer `status` (default 503) with SERVER_UNAVAILABLE */
  | 'server-error'
  /** answer 403 REQUEST_LIMIT_EXCEEDED "TotalRequests Limit exceeded." (Salesforce has no 429) */
  | 'rate-limit'
  /** answer 403 REQUEST_LIMIT_EXCEEDED "ConcurrentRequests (Concurrent API Requests) Limit exceeded." */
  | 'concurrent-limit'
  /** destroy the TCP connection before any response */
  | 'connection-reset'
  /** send the real response's headers, then its body in small chunks `chunkDelayMs` apart */
  | 'slow-body'
  /** send the real response cut in half (status 200, invalid JSON) */
  | 'truncated-json'
  /** answer 401 INVALID_SESSION_ID, as when a session times out mid-run */
  | 'expired-token';

export interface FaultRule {
  kind: FaultKind;
  /** how many matching requests get the fault (default: every one until cleared) */
  times?: number;
  /** let this many matching requests through first ("mid-run") */
  skip?: number;
  /** which requests (default: every REST API call, /services/data/vNN.N/...) */
  path?: RegExp;
  latencyMs?: number;
  status?: number;
  chunkDelayMs?: number;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'latency', 'server-error', 'rate-limit', 'concurrent-limit', 'connection-reset', 'slow-body', 'truncated-json', 'expired-token',
];

/** Is this a versioned REST API path (`/services/data/v62.0/...`)? Mount prefixes are allowed. */
export function isRestApiPath(path: string): boolean {
  const i = path.indexOf('/services/data/v');
  return i >= 0 && path.indexOf('/', i + '/services/data/v'.length) > 0;
}

const restApi = { test: isRestApiPath } as Pick<RegExp, 'test'>;

interface ActiveRule extends FaultRule {
  seen: number;
  applied: number;
}

/** The switchboard a test holds: add rules, clear them, read how many faults were injected. */
export class SandboxFaults {
  private rules: ActiveRule[] = [];
  /** REST API requests seen while fault injection was installed (faulty or not) */
  requests = 0;
  readonly injected: Record<FaultKind, number> = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

  /** Adds a rule; rules are tried in order and the first that applies wins. */
  inject(rule: FaultRule): this {
    this.rules.push({ ...rule, seen: 0, applied: 0 });
    return this;
  }

  clear(): void {
    this.rules = [];
  }

  get totalInjected(): number {
    return Object.values(this.injected).reduce((a, b) => a + b, 0);
  }

  pick(path: string): FaultRule | null {
    for (const rule of this.rules) {
      if (!(rule.path ?? restApi).test(path)) continue;
      rule.seen++;
      if (rule.seen <= (rule.skip ?? 0)) continue;
      if (rule.applied >= (rule.times ?? Infinity)) continue;
      rule.applied++;
      this.injected[rule.kind]++;
      return rule;
    }
    return null;
  }

  /** Hono middleware placed before every sandbox route. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      if (isRestApiPath(c.req.path)) this.requests++;
      const rule = this.pick(c.req.path);
      if (!rule) return next();
      return apply(rule, c, next);
    };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** context key: the latency the REST API gate waits after admitting the call */
export const FAULT_LATENCY = 'faultLatencyMs';
const errorBody = (errorCode: string, message: string) => [{ message, errorCode }];

async function apply(rule: FaultRule, c: Context, next: () => Promise<void>): Promise<Response | void> {
  switch (rule.kind) {
    case 'latency':
      if (isRestApiPath(c.req.path)) {
        c.set(FAULT_LATENCY, rule.latencyMs ?? 200);
        return next();
      }
      await sleep(rule.latencyMs ?? 200);
      return next();
    case 'server-error':
      return c.json(errorBody('SERVER_UNAVAILABLE', 'Our servers are temporarily unavailable. Please try again later.'), (rule.status ?? 503) as 503);
    case 'rate-limit':
      return c.json(errorBody('REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.'), 403);
    case 'concurrent-limit':
      return c.json(errorBody('REQUEST_LIMIT_EXCEEDED', 'ConcurrentRequests (Concurrent API Requests) Limit exceeded.'), 403);
    case 'expired-token':
      return c.json(errorBody('INVALID_SESSION_ID', 'Session expired or invalid'), 401);
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

export function createSandboxFaults(): SandboxFaults {
  return new SandboxFaults();
}

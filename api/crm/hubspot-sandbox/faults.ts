/**
 * Test-only fault injection for the sandboxes: CRM outages on demand, so tests can check what the
 * product does when the CRM misbehaves. HubSpot's answers by default; another CRM's sandbox passes its
 * `FaultProfile` (e.g. the Pipedrive sandbox's).
 *
 * Reachability: faults exist only when a `SandboxFaults` object is passed to
 * `createHubSpotSandbox({ faults })` / `startHubSpotSandboxServer({ faults })` from code. There is no
 * route, header, environment variable or configuration that turns them on, and the product's own
 * sandbox (mounted at /hubspot-sandbox by api/app.ts) is created without one, so nothing from the
 * network can switch a fault on. A sandbox is one portal (one hub id), so faults are per portal.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

export type FaultKind =
  /** wait `latencyMs` before answering normally */
  | 'latency'
  /** answer `status` (default 503) with the CRM's error body */
  | 'server-error'
  /** answer 429 with `Retry-After: retryAfterSeconds` (may be fractional, e.g. 0.2) */
  | 'rate-limit'
  /** destroy the TCP connection before any response */
  | 'connection-reset'
  /** send the real response's headers, then its body in small chunks `chunkDelayMs` apart */
  | 'slow-body'
  /** send the real response cut in half (status 200, invalid JSON) */
  | 'truncated-json'
  /** answer the CRM's 401 for an expired token (HubSpot: EXPIRED_AUTHENTICATION), as when an OAuth token expires mid-run */
  | 'expired-token';

export interface FaultRule {
  kind: FaultKind;
  /** how many matching requests get the fault (default: every one until cleared) */
  times?: number;
  /** let this many matching requests through first ("mid-run") */
  skip?: number;
  /** which requests (default: every API call of the CRM, `FaultProfile.apiPaths`; HubSpot: /crm/v3, /oauth/v1/access-tokens, /oauth/v2) */
  path?: RegExp;
  latencyMs?: number;
  status?: number;
  retryAfterSeconds?: number;
  chunkDelayMs?: number;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'latency', 'server-error', 'rate-limit', 'connection-reset', 'slow-body', 'truncated-json', 'expired-token',
];

/**
 * What a CRM's faults look like: which paths are its API calls, and its answers for an outage, a rate
 * limit and an expired token. The HubSpot sandbox uses the default; other CRM sandboxes pass theirs.
 */
export interface FaultProfile {
  apiPaths: RegExp;
  serverError(c: Context, status: number): Response;
  rateLimit(c: Context, retryAfterSeconds: number): Response;
  expiredToken(c: Context): Response;
}

const errorBody = (message: string, category: string) => ({ status: 'error', message, correlationId: randomUUID(), category });

export const HUBSPOT_FAULT_PROFILE: FaultProfile = {
  apiPaths: /\/(crm\/v3|oauth\/v1\/access-tokens|oauth\/v2)\//,
  serverError: (c, status) => c.json(errorBody('internal error', 'INTERNAL_ERROR'), status as 503),
  rateLimit: (c, retryAfterSeconds) =>
    c.json(
      { status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', correlationId: randomUUID(), policyName: 'SECONDLY' },
      429,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  expiredToken: (c) => c.json(errorBody('The OAuth token used to make this call expired 1 minute(s) ago.', 'EXPIRED_AUTHENTICATION'), 401),
};

interface ActiveRule extends FaultRule {
  seen: number;
  applied: number;
}

/** The switchboard a test holds: add rules, clear them, read how many faults were injected. */
export class SandboxFaults {
  private rules: ActiveRule[] = [];
  constructor(readonly profile: FaultProfile = HUBSPOT_FAULT_PROFILE) {}
  /** API requests seen while fault injection was installed (faulty or not) */
  requests = 0;
  /** faults injected so far, per kind */
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

  /** The rule that applies to this request, counting it. */
  pick(path: string): FaultRule | null {
    for (const rule of this.rules) {
      if (!(rule.path ?? this.profile.apiPaths).test(path)) continue;
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
      if (this.profile.apiPaths.test(c.req.path)) this.requests++;
      const rule = this.pick(c.req.path);
      if (!rule) return next();
      return apply(rule, this.profile, c, next);
    };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function apply(rule: FaultRule, profile: FaultProfile, c: Context, next: () => Promise<void>): Promise<Response | void> {
  switch (rule.kind) {
    case 'latency':
      await sleep(rule.latencyMs ?? 200);
      return next();
    case 'server-error':
      return profile.serverError(c, rule.status ?? 503);
    case 'rate-limit':
      return profile.rateLimit(c, rule.retryAfterSeconds ?? 1);
    case 'expired-token':
      return profile.expiredToken(c);
    case 'connection-reset': {
      // @hono/node-server hands the Node request over as `env.incoming` when the sandbox is served
      // directly; mounted inside another app it may not be, then the body is cut instead.
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
      // Replace the response through c.res (unset first so Hono does not merge the old one's headers).
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

export function createSandboxFaults(profile?: FaultProfile): SandboxFaults {
  return new SandboxFaults(profile);
}

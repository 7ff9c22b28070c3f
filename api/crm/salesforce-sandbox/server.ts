/** Serves a Salesforce sandbox over HTTP with @hono/node-server (tests use port 0 = any free loopback port). */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createSalesforceSandbox, type SalesforceSandbox, type SalesforceSandboxOptions } from './app.js';

export interface RunningSalesforceSandbox {
  sandbox: SalesforceSandbox;
  /** e.g. http://127.0.0.1:41234 — the instance URL and the login URL */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSalesforceSandboxServer(
  options: SalesforceSandboxOptions & { port?: number; hostname?: string; sandbox?: SalesforceSandbox } = {},
): Promise<RunningSalesforceSandbox> {
  const sandbox = options.sandbox ?? createSalesforceSandbox(options);
  const hostname = options.hostname ?? '127.0.0.1';
  const server = serve({ fetch: sandbox.app.fetch, port: options.port ?? 0, hostname });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    sandbox,
    port,
    url: `http://${hostname}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const s = server as unknown as { closeAllConnections?: () => void; close: (cb: () => void) => void };
        s.closeAllConnections?.();
        s.close(() => resolve());
      }),
  };
}

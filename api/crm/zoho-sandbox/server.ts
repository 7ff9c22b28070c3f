/** Serves a Zoho sandbox over HTTP with @hono/node-server (tests use port 0 = any free loopback port). */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createZohoSandbox, type ZohoSandbox, type ZohoSandboxOptions } from './app.js';

export interface RunningZohoSandbox {
  sandbox: ZohoSandbox;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startZohoSandboxServer(
  options: ZohoSandboxOptions & { port?: number; hostname?: string; sandbox?: ZohoSandbox } = {},
): Promise<RunningZohoSandbox> {
  const sandbox = options.sandbox ?? createZohoSandbox(options);
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

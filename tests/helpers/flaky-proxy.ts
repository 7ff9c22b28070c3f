// A TCP proxy in front of a test server that can lose the connection the way a restarting server
// does, counted in requests rather than time (so a test never depends on the machine's speed). Once
// armed, the connection carrying the `dropAt`-th request whose bytes match `match` (e.g. an operation
// name in a GraphQL body) is cut before the request is complete, and so are the connections of the
// next `refuse` matching requests (the retries); everything else is passed through. With `hold`,
// matching requests are kept instead: never passed on, never answered (a server that hangs).
import { createServer, connect, type Socket } from 'node:net';

export interface FlakyProxy {
  url: string;
  /** Starts counting matching requests from now. */
  arm(opts: { match: RegExp; dropAt: number; refuse: number; hold?: boolean }): void;
  /** Matching requests seen since armed. */
  readonly requests: number;
  /** Connections cut. */
  readonly cut: number;
  close(): Promise<void>;
}

export async function flakyProxy(target: { host: string; port: number }): Promise<FlakyProxy> {
  let armed: { match: RegExp; dropAt: number; refuse: number; hold?: boolean } | null = null;
  let requests = 0;
  let cut = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (chunk: Buffer) => {
      if (armed?.hold && armed.match.test(chunk.toString('latin1'))) {
        requests++;
        return;
      }
      if (armed && armed.match.test(chunk.toString('latin1')) && ++requests >= armed.dropAt && requests <= armed.dropAt + armed.refuse) {
        cut++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arm(opts) {
      armed = opts;
      requests = 0;
    },
    get requests() {
      return requests;
    },
    get cut() {
      return cut;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

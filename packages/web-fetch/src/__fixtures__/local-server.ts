import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a loopback address, answering by path. */
export interface LocalServer {
  /** `http://<host>:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Paths requested, in order. */
  readonly requested: string[];
  close(): Promise<void>;
}

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** Starts a server on `host` (default 127.0.0.1) with `routes`; unknown paths answer 404. */
export async function startLocalServer(routes: Record<string, Route>, host = '127.0.0.1'): Promise<LocalServer> {
  const requested: string[] = [];
  const server = createServer((request, response) => {
    requested.push(request.url ?? '');
    const route = routes[new URL(request.url ?? '/', 'http://x').pathname];
    if (route) route(request, response);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

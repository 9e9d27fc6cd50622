// A real HTTP server on 127.0.0.1 for the adapter tests: it records each request and lets the
// test answer in the vendor's wire format, streaming included.
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** Answers one request; `attempt` counts from 0; `closed` settles when the client hangs up. */
export type WireHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  attempt: number,
  closed: Promise<void>,
) => void | Promise<void>;

/** A running server. */
export interface WireServer {
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startWireServer(handler: WireHandler, path = '/v1'): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(recorded);
      const closed = new Promise<void>((resolve) => response.on('close', () => resolve()));
      Promise.resolve(handler(recorded, response, requests.length - 1, closed)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an SSE response. */
export function startEventStream(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** Writes one SSE event: `event:` when named, then `data:`. */
export function writeEvent(response: ServerResponse, data: string, event?: string): void {
  response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`);
}

/** A JSON error answer, with headers such as `retry-after-ms`. */
export function answerError(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

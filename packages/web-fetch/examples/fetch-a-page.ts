import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebFetchError, createWebFetchTool } from '@clawsmith/web-fetch';

// A page served on this machine. Loopback is refused unless allowed: here 127.0.0.1 is.
const server = createServer((_request, response) =>
  response
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<html><head><title>Owls</title></head><body><h1>Owls</h1><p>Owls hunt by <b>sound</b>.</p></body></html>'),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/owls`;
const context = {
  authorized: true, // you decided this call may run: core's permission policy does this for an agent
  workspaceRoot: process.cwd(),
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: AbortSignal.timeout(30_000),
};
try {
  const webFetch = createWebFetchTool({ allowance: { privateAddresses: ['127.0.0.1'] } });
  const page = await webFetch.execute({ url }, context);
  console.log(page.status, page.content.split('\n').at(-1)); // success Owls hunt by **sound**.
  const strict = createWebFetchTool(); // the default: public addresses only
  await strict.execute({ url }, context).catch((error: unknown) => {
    if (!WebFetchError.isInstance(error)) throw error;
    console.log('refused:', error.code); // refused: address_refused
  });
} finally {
  server.close();
}

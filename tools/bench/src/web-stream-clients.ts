// Child process of web.bench.ts: opens `count` event streams of one session and reads them
// without doing anything with the events; prints `ready` once every stream answered 200, and
// exits when its stdin closes. Keeps the clients' CPU out of the server's process.
import { once } from 'node:events';

const [origin, token, sessionId, afterText, countText] = process.argv.slice(2);
const readers = await Promise.all(
  Array.from({ length: Number(countText) }, async () => {
    const response = await fetch(`${origin}/api/sessions/${sessionId}/events/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': afterText! },
    });
    if (response.status !== 200) throw new Error(`stream refused: ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    void (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
    return reader;
  }),
);
process.stdout.write('ready\n');
process.stdin.resume();
await once(process.stdin, 'end');
await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));

// Child process of web.bench.ts: opens `count` event streams of one session and reads them
// without doing anything with the events beyond noting each stream's last `id`; prints `ready`
// once every stream answered 200. A stdin line `until N` is answered with `reached N` once every
// stream has received sequence N; it exits when its stdin closes. Keeps the clients' CPU out of
// the server's process.
import { createInterface } from 'node:readline';

const [origin, token, sessionId, afterText, countText] = process.argv.slice(2);
const lastIds: number[] = [];
let progressed = () => {};
const readers = await Promise.all(
  Array.from({ length: Number(countText) }, async (_, index) => {
    const response = await fetch(`${origin}/api/sessions/${sessionId}/events/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': afterText! },
    });
    if (response.status !== 200) throw new Error(`stream refused: ${response.status} ${await response.text()}`);
    lastIds[index] = Number(afterText);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      // An `id:` line may be split between two reads: the end of the previous one is kept.
      let tail = '\n';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const text = tail + decoder.decode(value, { stream: true });
        for (const match of text.matchAll(/\nid: (\d+)\n/g)) lastIds[index] = Number(match[1]);
        tail = text.slice(-24);
        progressed();
      }
    })().catch(() => {});
    return reader;
  }),
);
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const target = Number(/^until (\d+)$/.exec(line.trim())?.[1]);
  while (!lastIds.every((id) => id >= target)) await new Promise<void>((resolve) => (progressed = resolve));
  process.stdout.write(`reached ${target}\n`);
}
await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));

// Child process of the fan-out test and benchmark: opens `count` event streams of one session on
// a web server and follows them. It prints one JSON line when every stream answered
// (`{ "statuses": [...] }`), then obeys lines on stdin: `until N` waits until every stream has
// received sequence N and prints what they received (`{ "complete": k, "clients": n, "problem"? }`),
// `close` cancels the streams and exits.
import { createInterface } from 'node:readline';
import { SseReader } from '../../src/__fixtures__/sse-client.js';

const [origin, token, sessionId, countText] = process.argv.slice(2);

interface Client {
  readonly status: number;
  readonly reader: SseReader | undefined;
  readonly sequences: number[];
  readonly others: string[];
  ended: boolean;
}

const clients: Client[] = await Promise.all(
  Array.from({ length: Number(countText) }, async () => {
    const response = await fetch(`${origin}/api/sessions/${sessionId}/events/stream`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) await response.arrayBuffer();
    return {
      status: response.status,
      reader: response.status === 200 ? new SseReader(response) : undefined,
      sequences: [],
      others: [],
      ended: false,
    };
  }),
);

let wakeWaiters = () => {};
for (const client of clients) {
  if (!client.reader) continue;
  void (async () => {
    for (;;) {
      const message = await client.reader!.next(3_600_000).catch(() => undefined);
      if (message === undefined) {
        client.ended = true;
        return wakeWaiters();
      }
      if (message.event === 'message')
        client.sequences.push((JSON.parse(message.data) as { sequence: number }).sequence);
      else client.others.push(message.event);
      wakeWaiters();
    }
  })();
}
process.stdout.write(`${JSON.stringify({ statuses: clients.map((client) => client.status) })}\n`);

/** What a client should have received: every sequence from 1 to `last`, once, in order. */
function problemOf(client: Client, last: number): string | undefined {
  if (client.ended) return 'the stream ended';
  if (client.others.length > 0) return `unexpected events: ${client.others.join(', ')}`;
  if (client.sequences.length !== last) return `received ${client.sequences.length} events, expected ${last}`;
  const wrong = client.sequences.findIndex((sequence, index) => sequence !== index + 1);
  return wrong === -1 ? undefined : `position ${wrong} holds sequence ${client.sequences[wrong]}`;
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(' ');
  if (command === 'until') {
    const last = Number(argument);
    const streaming = clients.filter((client) => client.reader);
    while (!streaming.every((client) => client.ended || (client.sequences.at(-1) ?? 0) >= last))
      await new Promise<void>((resolve) => (wakeWaiters = resolve));
    const problems = streaming.map((client) => problemOf(client, last)).filter((problem) => problem !== undefined);
    process.stdout.write(
      `${JSON.stringify({ clients: streaming.length, complete: streaming.length - problems.length, problem: problems[0] })}\n`,
    );
  } else if (command === 'close') {
    await Promise.all(clients.map((client) => client.reader?.cancel()));
    break;
  }
}
// stdin (the parent's pipe) and pooled connections would keep the process alive.
process.exit(0);

// Test support: appends events to one session of a home, to race other processes doing the same.
// Usage: appending-events.ts <home> <session id> <writer>. Prints READY once the home is open;
// then for each line `<batches> <size>` on stdin appends that many batches of that many events
// (each an assistant message whose text is `<writer>/<batch>/<index>`) and prints `DONE` or
// `FAILED <message>`.
import { createInterface } from 'node:readline';
import { openClawsmithHome } from '../clawsmith-home.js';
import { SessionStore } from '../store/session-store.js';

const [home, sessionId, writer] = process.argv.slice(2) as [string, string, string];
const opened = await openClawsmithHome(home);
const store = new SessionStore(opened.db);
process.stdout.write('READY\n');
let batch = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [batches, size] = line.split(' ').map(Number) as [number, number];
  try {
    for (let count = 0; count < batches; count++, batch++) {
      const events = Array.from({ length: size }, (_, index) => ({
        type: 'assistant.message' as const,
        text: `${writer}/${batch}/${index}`,
        toolCalls: [],
      }));
      await store.appendEvents(sessionId, events);
    }
    process.stdout.write('DONE\n');
  } catch (error) {
    process.stdout.write(`FAILED ${(error as Error).message.replaceAll('\n', ' ')}\n`);
  }
}
await opened.close();

// Child process of web.bench.ts: appends one event to a session every `intervalMs`, stamped with
// the wall-clock time of the append, so the parent can measure how late its SSE client sees it.
import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';

const [homePath, sessionId, countText, intervalText] = process.argv.slice(2);
const home = await openClawsmithHome(homePath);
const store = new SessionStore(home.db);
for (let index = 0; index < Number(countText); index += 1) {
  await new Promise((resolve) => setTimeout(resolve, Number(intervalText)));
  await store.appendEvent(sessionId!, {
    type: 'todos.updated',
    // The time rides in the one free-text field of the event: the log keeps only typed fields.
    todos: [{ content: `sent at ${performance.timeOrigin + performance.now()}`, status: 'pending' }],
  });
}
await home.close();

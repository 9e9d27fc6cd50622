// The web server on a session of 100,000 events: one page of 200 events, the delay before an
// event appended by another process reaches an SSE client, and the CPU that 50 idle SSE clients
// (in this process) and 200 (in four other processes) cost, and the server's CPU while those 200
// follow a burst of appends. Each figure is printed beside a reference measured in the same run.
import { readSessionEvent } from '@clawsmith/session-protocol';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { createScriptedProvider } from '@clawsmith/providers';
import { startWebServer } from '@clawsmith/web';
import { measure, report } from './measure.js';

const EVENTS = 100_000;
const homePath = mkdtempSync(join(tmpdir(), 'clawsmith-bench-web-'));
const home = await openClawsmithHome(homePath);
const store = new SessionStore(home.db);
const core = createAgentCore({
  db: home.db,
  provider: createScriptedProvider({ script: { responses: [] } }),
  checkpoints: home.checkpoints,
  artifacts: home.artifacts,
  builtinTools: createBuiltinTools(),
});
const session = await core.createSession({ workspaceRoot: homePath });
for (let written = 1; written < EVENTS; written += 1_000) {
  const count = Math.min(1_000, EVENTS - written);
  await store.appendEvents(
    session.id,
    Array.from({ length: count }, (_, index) => ({
      type: 'tool.completed' as const,
      turnId: 'bench-turn',
      toolCallId: `call_${written + index}`,
      toolName: 'read_file',
      status: 'success',
      result: { version: 1, status: 'success' },
      output: 'x'.repeat(200),
    })),
  );
}
const server = await startWebServer({ core, home, maxStreams: 250 });
const headers = { authorization: `Bearer ${server.token}` };
const get = async (path: string) => {
  const response = await fetch(`${server.origin}${path}`, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
};

// 1. One page of 200 events from the middle of the session.
const middle = `/api/sessions/${session.id}/events?afterSequence=50000&limit=200`;
const reference = await measure('GET one session (one row)', () => get(`/api/sessions/${session.id}`), 50);
const pageStore = await measure(
  'store: 200 events after 50,000 (no HTTP)',
  () => store.listEvents(session.id, { afterSequence: 50_000, limit: 201 }),
  50,
);
const pageHttp = await measure('GET a page of 200 events (HTTP, loopback)', () => get(middle), 50);
report(`a page of 200 events of a ${EVENTS.toLocaleString('en')}-event session`, reference, [pageStore, pageHttp]);

// 2. Latency from another process's append to the SSE client.
// Reference: the same appends from a second connection in this process (the same poll, no
// process boundary).
const secondConnection = await openClawsmithHome(homePath);
const secondStore = new SessionStore(secondConnection.db);
async function streamLatencies(writer: 'child' | 'in-process', samples: number): Promise<number[]> {
  const response = await fetch(`${server.origin}/api/sessions/${session.id}/events/stream`, {
    headers: { ...headers, 'last-event-id': String(await store.lastSequence(session.id)) },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const latencies: number[] = [];
  let buffer = '';
  const produce =
    writer === 'child'
      ? new Promise<void>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              ...process.execArgv,
              join(import.meta.dirname, 'web-append-child.ts'),
              homePath,
              session.id,
              String(samples),
              '100',
            ],
            { stdio: 'inherit' },
          );
          child.on('error', reject);
          child.on('close', () => resolve());
        })
      : (async () => {
          for (let index = 0; index < samples; index += 1) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            await secondStore.appendEvent(session.id, {
              type: 'todos.updated',
              todos: [{ content: `sent at ${performance.timeOrigin + performance.now()}`, status: 'pending' }],
            });
          }
        })();
  while (latencies.length < samples) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer
        .slice(0, boundary)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(boundary + 2);
      if (!data) continue;
      const event = readSessionEvent(JSON.parse(data.slice(6)));
      const sent = event.type === 'todos.updated' ? /^sent at (.+)$/.exec(event.todos[0]?.content ?? '') : null;
      if (sent) latencies.push(performance.timeOrigin + performance.now() - Number(sent[1]));
    }
  }
  await reader.cancel();
  await produce;
  return latencies.sort((left, right) => left - right);
}
const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => values[Math.floor(values.length * 0.9)]!;
const inProcess = await streamLatencies('in-process', 40);
const crossProcess = await streamLatencies('child', 40);
console.log('\n## an appended event reaching an SSE client');
console.log('| writer | median ms | p90 ms | ratio to same process |');
console.log('|---|---:|---:|---:|');
console.log(
  `| second connection, same process | ${median(inProcess).toFixed(1)} | ${p90(inProcess).toFixed(1)} | 1.00x |`,
);
console.log(
  `| another process (data_version poll, 25 ms) | ${median(crossProcess).toFixed(1)} | ${p90(crossProcess).toFixed(1)} | ${(median(crossProcess) / median(inProcess)).toFixed(2)}x |`,
);

// 3. CPU of 50 idle SSE clients on one session, against the idle server without clients.
async function cpuPercent(seconds: number): Promise<number> {
  const start = process.cpuUsage();
  const wall = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 1_000 / (performance.now() - wall)) * 100;
}
const idleAlone = await cpuPercent(5);
const clients = await Promise.all(
  Array.from({ length: 50 }, async () => {
    const response = await fetch(`${server.origin}/api/sessions/${session.id}/events/stream`, {
      headers: { ...headers, 'last-event-id': String(await store.lastSequence(session.id)) },
    });
    const reader = response.body!.getReader();
    void (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
    return reader;
  }),
);
await new Promise((resolve) => setTimeout(resolve, 1_000));
const idleWithClients = await cpuPercent(5);
console.log('\n## CPU while idle (server and clients in this process, % of one core)');
console.log('| what | CPU % |');
console.log('|---|---:|');
console.log(`| server, no stream | ${idleAlone.toFixed(2)} |`);
console.log(
  `| server with 50 idle SSE clients on one session (clients' reads included) | ${idleWithClients.toFixed(2)} |`,
);
await Promise.all(clients.map((reader) => reader.cancel().catch(() => {})));

// 5. (measured around 4) A burst of 1,000 events, 200 appends of 5 from a second connection
// 5 ms apart, and then until every client has them: this process's CPU (the server's, and the
// appends'). The reference is the same burst with no client; the difference is what serving the
// 200 clients costs.
const BURST_APPENDS = 200;
async function burstCpuMs(clientGroups: readonly { until(sequence: number): Promise<void> }[]): Promise<number> {
  const start = process.cpuUsage();
  for (let append = 0; append < BURST_APPENDS; append += 1) {
    await secondStore.appendEvents(
      session.id,
      Array.from({ length: 5 }, (_, index) => ({
        type: 'todos.updated' as const,
        todos: [{ content: `burst ${append} item ${index}`, status: 'pending' }],
      })),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const last = await store.lastSequence(session.id);
  await Promise.all(clientGroups.map((group) => group.until(last)));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1_000;
}
const burstAlone = await burstCpuMs([]);

// 4. 200 idle clients in four other processes: only the server's CPU is in this process now.
const lastSequence = String(await store.lastSequence(session.id));
const groups = await Promise.all(
  Array.from({ length: 4 }, async () => {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        join(import.meta.dirname, 'web-stream-clients.ts'),
        server.origin,
        server.token,
        session.id,
        lastSequence,
        '50',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let output = '';
    let answered = () => {};
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready')) resolve();
        answered();
      });
      child.on('close', (code) => reject(new Error(`a client process ended early (exit ${code})`)));
    });
    return {
      child,
      async until(sequence: number): Promise<void> {
        child.stdin.write(`until ${sequence}\n`);
        while (!output.includes(`reached ${sequence}\n`)) await new Promise<void>((resolve) => (answered = resolve));
      },
    };
  }),
);
await new Promise((resolve) => setTimeout(resolve, 1_000));
const idleWithRemoteClients = await cpuPercent(5);
console.log(
  `| server with 200 idle SSE clients in four other processes (server only) | ${idleWithRemoteClients.toFixed(2)} |`,
);
const burstWithClients = await burstCpuMs(groups);
console.log(`\n## CPU of a burst of ${BURST_APPENDS * 5} events (this process: server and appends)`);
console.log('| what | CPU ms | ratio |');
console.log('|---|---:|---:|');
console.log(`| reference: the burst, no client | ${burstAlone.toFixed(0)} | 1.00x |`);
console.log(
  `| the burst, followed to its last event by 200 SSE clients in four other processes | ${burstWithClients.toFixed(0)} | ${(burstWithClients / burstAlone).toFixed(2)}x |`,
);
await Promise.all(
  groups.map(async ({ child }) => {
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.stdin.end();
    await closed;
  }),
);

await secondConnection.close();
await server.close();
await core.close();
await home.close();
rmSync(homePath, { recursive: true, force: true });

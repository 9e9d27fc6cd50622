// 200 event-stream clients in four processes follow one session while a fifth process, a real
// `clawsmith run`, writes to it: every client receives every sequence number once, in order.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundledFixture } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { spawnClawsmith } from './clawsmith-process.js';

const PROCESSES = 4;
const CLIENTS_PER_PROCESS = 50;
// Bundled once per test process: the four client processes start as plain JavaScript.
const clientsProgram = await bundledFixture(join(import.meta.dirname, 'sse-clients.ts'));

/** A child holding `count` streams; `send` writes a command line, `next` reads its next JSON line. */
function startClients(origin: string, token: string, sessionId: string, count: number) {
  const child = spawn(process.execPath, [clientsProgram, origin, token, sessionId, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    send: (line: string) => child.stdin!.write(`${line}\n`),
    async next<T>(): Promise<T> {
      const { value, done } = await lines.next();
      if (done) throw new Error(`the client process ended (exit ${await exited})`);
      return JSON.parse(value as string) as T;
    },
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

describe('GET /api/sessions/:sessionId/events/stream with 200 clients in other processes', () => {
  it('every client sees every event a separate `clawsmith run` writes, each sequence once and in order', async () => {
    const web = await createWebHarness({ maxStreams: PROCESSES * CLIENTS_PER_PROCESS });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const groups = Array.from({ length: PROCESSES }, () =>
      startClients(web.server.origin, web.server.token, session.id, CLIENTS_PER_PROCESS),
    );
    try {
      for (const group of groups) {
        const { statuses } = await group.next<{ statuses: number[] }>();
        expect(statuses).toEqual(Array.from({ length: CLIENTS_PER_PROCESS }, () => 200));
      }
      // The bound holds under the fan-out: one stream more is refused.
      const refused = await web.api(`/api/sessions/${session.id}/events/stream`);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: { code: 'too_many_streams' } });

      // 20 model responses of 10 todo_write calls each, then a final answer: hundreds of events.
      const responses: unknown[] = Array.from({ length: 20 }, (_, step) => ({
        toolCalls: Array.from({ length: 10 }, (_, call) => ({
          id: `call_${step}_${call}`,
          name: 'todo_write',
          arguments: { todos: [{ content: `step ${step} call ${call}`, status: 'pending' }] },
        })),
      }));
      responses.push({ text: 'All done.' });
      const script = join(web.homePath, 'fanout-script.json');
      writeFileSync(script, JSON.stringify({ responses }));
      const run = await spawnClawsmith(
        web.homePath,
        [
          'run',
          '--json',
          '--session',
          session.id,
          '--workspace',
          web.workspace,
          '--permission-mode',
          'full-auto',
          '--script',
          script,
          'write many events',
        ],
        web.workspace,
      ).exited;
      expect(run.code, run.stderr).toBe(0);
      const last = await web.store.lastSequence(session.id);
      expect(last).toBeGreaterThan(600);
      const lastPrinted = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { sequence: number };
      expect(lastPrinted.sequence).toBe(last);

      for (const group of groups) group.send(`until ${last}`);
      for (const group of groups) {
        const summary = await group.next<{ clients: number; complete: number; problem?: string }>();
        expect(summary).toEqual({ clients: CLIENTS_PER_PROCESS, complete: CLIENTS_PER_PROCESS });
      }
      for (const group of groups) group.send('close');
      expect(await Promise.all(groups.map((group) => group.exited))).toEqual(groups.map(() => 0));
    } finally {
      for (const group of groups) group.kill();
    }
  }, 240_000);
});

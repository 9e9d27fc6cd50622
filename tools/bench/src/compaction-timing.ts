// Compaction's own time outside the model: a session of 2,000 messages (1,000 tool calls of about
// 2 KB each, in a real SQLite home) is forked before each run, untimed, and the fork compacted on
// demand, with a scripted model whose summary costs nothing: the whole call (which first loads the
// history from SQLite) and the compaction's own `durationMs` (what a turn, which holds the history
// in memory, pays). Beside it, in the same run, reading the model's view of the same history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAgentCore, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { timingOf, type Timing } from './measure.js';

const CALLS = 1_000;
const RUNS = 9;

const readNote = defineTool({
  name: 'read_note',
  description: 'Reads a note.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: true,
  inputSchema: z.object({ index: z.number() }),
  summarize: (input) => `note ${input.index}`,
  execute: async (input) =>
    Array.from({ length: 40 }, (_, line) => `note ${input.index} line ${line}: ${'lorem ipsum '.repeat(3)}`).join('\n'),
});

/** Times on-demand compaction and, as the reference, the model view of a 2,000-message session. */
export async function compactionTimes(): Promise<{ reference: Timing; timings: Timing[] }> {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  try {
    const responses: ScriptedResponse[] = Array.from({ length: CALLS }, (_, index) => ({
      toolCalls: [{ id: `c${index}`, name: 'read_note', arguments: { index } }],
    }));
    responses.push({ text: 'done' });
    // The summary requests of the timed runs.
    for (let run = 0; run < RUNS + 1; run += 1) responses.push({ text: 'Summary: notes read, nothing changed.' });
    const core = createAgentCore({
      db: opened.db,
      provider: createScriptedProvider({ script: { responses } }),
      checkpoints: opened.checkpoints,
      artifacts: opened.artifacts,
      builtinTools: [readNote],
      permissionMode: 'default',
      maxSteps: CALLS + 1,
      contextWindow: 200_000,
    });
    const session = await core.createSession({ workspaceRoot: workspace });
    const turn = await core.runTurn({ sessionId: session.id, prompt: 'read every note' });
    if (turn.status !== 'completed') throw new Error(`building the history ended ${turn.status}`);
    const messages = (await core.modelView(session.id)).length;
    if (messages < 2_000) throw new Error(`the history holds ${messages} messages, not 2,000`);

    const view: number[] = [];
    const compaction: number[] = [];
    const own: number[] = [];
    let pruned = 0;
    for (let run = 0; run < RUNS + 1; run += 1) {
      const fork = await core.fork(session.id);
      let start = performance.now();
      await core.modelView(fork.id);
      const viewMs = performance.now() - start;
      start = performance.now();
      const result = await core.compact(fork.id);
      const compactionMs = performance.now() - start;
      if (run === 0) continue;
      view.push(viewMs);
      compaction.push(compactionMs);
      pruned = result.prunedToolResults;
      const event = (await core.listEvents(fork.id)).findLast((candidate) => candidate.type === 'context.compacted');
      if (event?.type !== 'context.compacted' || event.durationMs === undefined)
        throw new Error('the compaction recorded no duration');
      own.push(event.durationMs);
    }
    return {
      reference: timingOf(`model view of ${messages} messages`, view),
      timings: [
        timingOf(`AgentCore.compact(): load, then compact (${pruned} results to artifacts, one summary)`, compaction),
        timingOf('  of which the compaction itself (its durationMs)', own),
      ],
    };
  } finally {
    await opened.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

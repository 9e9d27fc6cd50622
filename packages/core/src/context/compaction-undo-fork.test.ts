import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolModelMessage } from '@clawsmith/providers';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';

/** About 12 KB of distinct text. */
function text(name: string): string {
  return Array.from({ length: 300 }, (_, line) => `${name} line ${line}: some words to fill the file`).join('\n');
}

const FILES = { 'a.txt': text('a'), 'b.txt': text('b'), 'c.txt': text('c'), 'd.txt': text('d') };

describe('compaction across undo and fork', () => {
  it('prunes old results in the model view only, and undo all / fork carry the view exactly', async () => {
    const harness = await createHarness({
      files: FILES,
      contextWindow: 16_384,
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('r0', 'read_file', { path: 'a.txt' })] },
        { text: 'Read a.' },
        ...['a', 'b', 'c', 'd'].map((name, index) => ({
          toolCalls: [call(`r${index + 1}`, 'read_file', { path: `${name}.txt` })],
        })),
        { toolCalls: [call('w1', 'write_file', { path: 'notes.md', content: 'notes\n' })] },
        { text: 'Done.' },
      ],
    });
    const { core, session } = harness;
    const first = await core.runTurn({ sessionId: session.id, prompt: 'read a' });
    expect(first.status).toBe('completed');
    const messagesAfterFirst = await core.listMessages(session.id);
    expect(await core.modelView(session.id)).toEqual(messagesAfterFirst);

    const second = await core.runTurn({ sessionId: session.id, prompt: 'read them all' });
    expect(second.status).toBe('completed');
    const compactions = await harness.eventsOf('context.compacted');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ reason: 'threshold', contextWindow: 16_384 });
    expect(compactions[0]!.tokensAfter).toBeLessThan(compactions[0]!.tokensBefore);
    // The record keeps every result; the view has stubs naming the artifact with the full text.
    const stored = await core.listMessages(session.id);
    const view = await core.modelView(session.id);
    expect(view).toHaveLength(stored.length);
    const storedResults = stored.filter(
      (message): message is ToolModelMessage => message.role === 'tool' && message.toolName === 'read_file',
    );
    expect(storedResults.every((message) => message.content.includes('line 299'))).toBe(true);
    const stubs = view.filter(
      (message) => message.role === 'tool' && message.content.includes('removed from the context'),
    );
    expect(stubs.length).toBeGreaterThan(0);
    const artifactId = /artifact (art_[0-9a-f]{32})/.exec(stubs[0]!.role === 'tool' ? stubs[0]!.content : '')![1]!;
    const info = await harness.home.artifacts.info(session.id, artifactId);
    expect(info.byteLength).toBe(
      Buffer.byteLength(storedResults.find((message) => message.toolCallId === info.toolCallId)!.content),
    );
    // The latest results are sent as stored.
    expect(view.at(-2)).toEqual(stored.at(-2));

    // A fork after the compaction builds the same view.
    const fork = await core.fork(session.id);
    expect(await core.modelView(fork.id)).toEqual(view);
    // ...and the fork's model can read the artifact its stub names.
    expect(await harness.home.artifacts.info(fork.id, artifactId)).toMatchObject({ byteLength: info.byteLength });

    // Undo all of the compacting turn: files and conversation as before, and the view is the stored conversation.
    expect(existsSync(join(harness.workspace, 'notes.md'))).toBe(true);
    await core.restore(session.id, second.turnId, 'all');
    expect(existsSync(join(harness.workspace, 'notes.md'))).toBe(false);
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe(FILES['a.txt']);
    expect(await core.listMessages(session.id)).toEqual(messagesAfterFirst);
    expect(await harness.eventsOf('context.compacted')).toEqual([]);
    expect(await core.modelView(session.id)).toEqual(messagesAfterFirst);
  });

  it('compacts on demand and says when there is nothing to take out', async () => {
    const harness = await createHarness({
      files: FILES,
      responses: [
        { toolCalls: [call('r1', 'read_file', { path: 'a.txt' })] },
        { toolCalls: [call('r2', 'read_file', { path: 'b.txt' })] },
        { text: 'Read both.' },
      ],
    });
    const { core, session } = harness;
    expect(await core.compact(session.id)).toMatchObject({ compacted: false });
    await core.runTurn({ sessionId: session.id, prompt: 'read a and b' });
    const result = await core.compact(session.id);
    expect(result.compacted).toBe(true);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    const [event] = await harness.eventsOf('context.compacted');
    expect(event).toMatchObject({ reason: 'manual', prunedToolResults: 2 });
  });

  it('counts the summary request in the turn that needed it: its tokens in the usage, its answer in the event', async () => {
    const prompt = (turn: number) => `Turn ${turn}: ${text(`prompt ${turn}`).slice(0, 12_000)}`;
    const harness = await createHarness({
      contextWindow: 16_384,
      responses: [
        { text: 'One.' },
        { text: 'Two.' },
        { text: 'Three.' },
        // No tool result to take out in turn 4, so the first prompt is summarised.
        { text: 'Summary: four long prompts.', usage: { inputTokens: 777, outputTokens: 33 } },
        { text: 'Four.' },
      ],
    });
    const { core, session } = harness;
    for (let turn = 1; turn <= 4; turn += 1) {
      const result = await core.runTurn({ sessionId: session.id, prompt: prompt(turn) });
      expect(result.status).toBe('completed');
    }
    // Turns 2 and 3 passed the threshold too, with nothing to take out: they record nothing.
    const compactions = await harness.eventsOf('context.compacted');
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({
      reason: 'threshold',
      prunedToolResults: 0,
      summary: 'Summary: four long prompts.',
      summaryUsage: { inputTokens: 777, outputTokens: 33 },
    });
    const turns = await harness.eventsOf('turn.completed');
    expect(turns.at(-1)).toMatchObject({ usage: { inputTokens: 777, outputTokens: 33 } });
    expect(turns.slice(0, 3).map((event) => event.usage?.inputTokens ?? 0)).toEqual([0, 0, 0]);
  });
});

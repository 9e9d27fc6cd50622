import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';

describe('RunTurnOptions.permissionMode', () => {
  it("judges one turn's calls by the turn's mode and the next turn by the core's again", async () => {
    const asked: string[] = [];
    const harness = await createHarness({
      permissionMode: 'default',
      approvalHandler: async (request) => {
        asked.push(request.toolName);
        return 'deny';
      },
      responses: [
        { toolCalls: [call('w1', 'write_file', { path: 'one.txt', content: '1' })] },
        { text: 'ok' },
        { toolCalls: [call('w2', 'write_file', { path: 'two.txt', content: '2' })] },
        { text: 'ok' },
        { toolCalls: [call('w3', 'write_file', { path: 'three.txt', content: '3' })] },
        { text: 'ok' },
      ],
    });
    const sessionId = harness.session.id;
    await harness.core.runTurn({ sessionId, prompt: 'write', permissionMode: 'accept-edits' });
    expect(existsSync(join(harness.workspace, 'one.txt'))).toBe(true);
    await harness.core.runTurn({ sessionId, prompt: 'write', permissionMode: 'read-only' });
    expect(existsSync(join(harness.workspace, 'two.txt'))).toBe(false);
    await harness.core.runTurn({ sessionId, prompt: 'write' });
    expect(existsSync(join(harness.workspace, 'three.txt'))).toBe(false);
    // Only the turn in the core's own mode asked; read-only denied without asking.
    expect(asked).toEqual(['write_file']);
    const reasons = (await harness.eventsOf('tool.decision'))
      .filter((event) => event.stage === 'permission')
      .map((event) => event.reason);
    expect(reasons).toEqual([
      'mode accept-edits: workspace writes are allowed',
      'mode read-only: workspace-write is not allowed',
      'mode default: workspace-write needs approval',
    ]);
  });
});

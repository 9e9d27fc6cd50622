import { resolve } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';
import { CHILD_TIMEOUT, runUntilKilled } from '../__fixtures__/killed-child.js';

const fixture = resolve(import.meta.dirname, '../__fixtures__/delegating-crash.ts');
function runUntilChildrenWork(home: string, workspace: string): Promise<string> {
  return runUntilKilled(
    fixture,
    home,
    workspace,
    (output) => output.includes('CHILD_TOOL_STARTED b1') && output.includes('CHILD_TOOL_STARTED d1'),
  );
}

describe('subagents after a crash', () => {
  it(
    'children running when the parent process is SIGKILLed close as interrupted and are never re-run',
    async () => {
      const workspace = createTestdir({ 'a.txt': 'alpha\n' });
      const home = createTestdir({}, 'clawsmith-home-');
      onTestFinished(() => {
        workspace.remove();
        home.remove();
      });
      const sessionId = await runUntilChildrenWork(home.path, workspace.path);

      const opened = await openClawsmithHome(home.path);
      const provider = createScriptedProvider({ script: { responses: [] } });
      const core = createAgentCore({
        db: opened.db,
        provider,
        delegation: {},
        checkpoints: opened.checkpoints,
        builtinTools: [],
      });
      onTestFinished(async () => {
        await core.close();
        await opened.close();
      });
      const before = await core.listDelegations(sessionId);
      expect(before.map((child) => [child.parentToolCallId, child.status])).toEqual([
        ['b1', 'running'],
        ['d1', 'running'],
      ]);
      await core.openSession(sessionId);
      const after = await core.listDelegations(sessionId);
      expect(after.map((child) => [child.parentToolCallId, child.status])).toEqual([
        ['b1', 'interrupted'],
        ['d1', 'interrupted'],
      ]);
      for (const child of after) {
        expect((await core.listTurns(child.childSessionId)).map((turn) => turn.status)).toEqual(['interrupted']);
        const closed = (await core.listEvents(child.childSessionId)).filter((event) => event.type === 'tool.completed');
        expect(closed.map((event) => [event.toolName, (event.result as { code?: string }).code])).toEqual([
          ['survey', 'interrupted'],
        ]);
        // Never re-run: no second start of the child's tool.
        const starts = (await core.listEvents(child.childSessionId)).filter((event) => event.type === 'tool.started');
        expect(starts).toHaveLength(1);
      }
      expect((await core.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['interrupted']);
    },
    CHILD_TIMEOUT,
  );
});

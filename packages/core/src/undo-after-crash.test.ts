import { resolve } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { createTestdir } from '@clawsmith/test-utils';
import { expect, it, onTestFinished } from 'vitest';
import { createAgentCore } from './agent-core.js';
import { createBuiltinTools } from './builtin-tools.js';
import { openClawsmithHome } from './clawsmith-home.js';
import { CHILD_TIMEOUT, runUntilKilled } from './__fixtures__/killed-child.js';

const fixture = resolve(import.meta.dirname, '__fixtures__/crashing-turn.ts');

it(
  'undoes a turn whose process died mid-turn without running the session again: recovery settles it first',
  async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const sessionId = await runUntilKilled(fixture, home.path, workspace.path, (output) =>
      output.includes('TOOL_STARTED'),
    );
    const opened = await openClawsmithHome(home.path);
    const core = createAgentCore({
      db: opened.db,
      provider: createScriptedProvider({ script: { responses: [] } }),
      checkpoints: opened.checkpoints,
      builtinTools: createBuiltinTools(),
    });
    onTestFinished(async () => {
      await core.close();
      await opened.close();
    });
    const [point] = await opened.checkpoints.listRestorePoints(sessionId);
    expect(point?.completedAt ?? null).toBeNull();
    // `clawsmith undo` opens no session: the restore itself must settle the dead process's turn.
    const restored = await core.restore(sessionId, point!.turnId, 'files');
    expect(restored.restoredPaths).toEqual([]);
    const [after] = await opened.checkpoints.listRestorePoints(sessionId);
    expect(after?.undone).toBe(true);
  },
  CHILD_TIMEOUT,
);

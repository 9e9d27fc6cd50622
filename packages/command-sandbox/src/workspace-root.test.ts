import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { createCommandExecutionService, createRunCommandTool } from './index.js';

function context(workspaceRoot: string): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: 's1',
    turnId: 't1',
    toolCallId: 'c1',
    signal: new AbortController().signal,
  };
}

async function refusal(action: Promise<unknown>): Promise<ClawsmithError> {
  const error = await action.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ClawsmithError.isInstance(error)) throw new Error(`expected a ClawsmithError, got ${String(error)}`);
  return error;
}

describe('workspace_unavailable', () => {
  it('refuses a workspace root that does not exist, saying what to pass, and runs nothing', async () => {
    const parent = testdir({});
    const missing = join(parent, 'not-created-yet');
    const tool = createRunCommandTool({ sandbox: 'off' });
    const error = await refusal(tool.execute({ command: 'mkdir made' }, context(missing)));
    expect(error.code).toBe('workspace_unavailable');
    expect(error.message).toContain(JSON.stringify(missing));
    expect(error.message).toContain('absolute path of an existing folder');
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses a file and a relative path as the workspace root', async () => {
    const parent = testdir({ 'notes.txt': 'not a folder' });
    const tool = createRunCommandTool({ sandbox: 'auto' });
    const onFile = await refusal(tool.execute({ command: 'true' }, context(join(parent, 'notes.txt'))));
    expect(onFile.code).toBe('workspace_unavailable');
    expect(onFile.message).toContain('is not a folder');
    const relative = await refusal(tool.execute({ command: 'true' }, context('relative/project')));
    expect(relative.code).toBe('workspace_unavailable');
    expect(relative.message).toContain('is not an absolute path');
  });

  it('refuses a missing workspace root for a background command too', async () => {
    const service = createCommandExecutionService({ sandbox: 'off' });
    try {
      const missing = join(testdir({}), 'gone');
      const error = await refusal(service.start({ sessionId: 's1', workspaceRoot: missing, command: 'sleep 5' }));
      expect(error.code).toBe('workspace_unavailable');
      expect(service.list('s1')).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

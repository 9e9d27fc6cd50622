import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';

const fixture = resolve(import.meta.dirname, '../__fixtures__/delegating-crash.ts');
// A child that compiles core with tsx takes seconds on a loaded machine (minutes at a load of 30).
const CHILD_TIMEOUT = 240_000;

function runUntilChildrenWork(home: string, workspace: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@clawsmith/source', '--import', 'tsx', fixture, home, workspace],
      // stdin stays open: the children's tools wait on it, so only the SIGKILL ends the process.
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('CHILD_TOOL_STARTED b1') && output.includes('CHILD_TOOL_STARTED d1')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code, signal) => {
      child.stdin.destroy();
      const session = /SESSION (\S+)/.exec(output)?.[1];
      if (signal === 'SIGKILL' && session) resolvePromise(session);
      else reject(new Error(`the children did not reach their tools (exit ${code}, ${signal}): ${output}\n${errors}`));
    });
  });
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

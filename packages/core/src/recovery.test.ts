import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import type { SessionEventOf } from '@clawsmith/session-protocol';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentCore } from './agent-core.js';
import { openClawsmithHome } from './clawsmith-home.js';
import { CHILD_TIMEOUT, runUntilKilled } from './__fixtures__/killed-child.js';

const fixture = resolve(import.meta.dirname, '__fixtures__/crashing-turn.ts');
function runUntilToolStarts(home: string, workspace: string): Promise<string> {
  return runUntilKilled(fixture, home, workspace, (output) => output.includes('TOOL_STARTED'));
}

describe('the crashing-turn fixture', () => {
  it(
    'stays alive in its tool until the test acts: it only goes on when its stdin closes',
    async () => {
      const home = createTestdir({}, 'clawsmith-home-');
      const workspace = createTestdir({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
      onTestFinished(() => {
        home.remove();
        workspace.remove();
      });
      const child = spawn(
        process.execPath,
        ['--conditions=@clawsmith/source', '--import', 'tsx', fixture, home.path, workspace.path],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let output = '';
      const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
      await new Promise<void>((resolveStarted, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('TOOL_STARTED')) resolveStarted();
          if (output.includes('STDIN_CLOSED')) child.kill('SIGKILL');
        });
        child.on('exit', () => reject(new Error(`the fixture ended before its tool started: ${output}`)));
      });
      // A process that had already exited (the old fixture's code 13) could not answer this.
      child.stdin.end();
      await exited;
      expect(output).toContain('STDIN_CLOSED');
    },
    CHILD_TIMEOUT,
  );
});

describe('crash recovery', () => {
  it(
    'closes a side-effect call killed by SIGKILL as unknown/interrupted, never replays it, and the session goes on',
    async () => {
      const workspace = createTestdir({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
      const home = createTestdir({}, 'clawsmith-home-');
      onTestFinished(() => {
        workspace.remove();
        home.remove();
      });
      const sessionId = await runUntilToolStarts(home.path, workspace.path);
      expect(readFileSync(join(workspace.path, 'deployed.txt'), 'utf8')).toBe('prod');

      const opened = await openClawsmithHome(home.path);
      onTestFinished(() => opened.close());
      const core = createAgentCore({
        db: opened.db,
        provider: createScriptedProvider({
          script: { responses: [{ text: 'I will check the workspace before deploying again.' }] },
        }),
        checkpoints: opened.checkpoints,
        artifacts: opened.artifacts,
        builtinTools: [],
      });
      const [openLog] = await opened.artifacts.list(sessionId);
      expect(openLog).toMatchObject({ toolCallId: 'deploy-1', state: 'open' });
      await core.openSession(sessionId);
      const events = await core.listEvents(sessionId);
      expect(await opened.artifacts.info(sessionId, openLog!.id)).toMatchObject({
        state: 'complete',
        byteLength: 'deploy: uploading\n'.length,
        sha256: createHash('sha256').update('deploy: uploading\n').digest('hex'),
      });
      expect(events.find((event) => event.type === 'session.recovered')).toMatchObject({ sealedArtifacts: 1 });
      const completedFor = (id: string) =>
        events.find(
          (event): event is SessionEventOf<'tool.completed'> =>
            event.type === 'tool.completed' && event.toolCallId === id,
        );
      expect(completedFor('read-1')?.result).toMatchObject({ status: 'success' });
      expect(completedFor('deploy-1')).toMatchObject({
        result: { status: 'unknown', code: 'interrupted', retryable: false },
        recovered: true,
      });
      expect(completedFor('after-1')).toMatchObject({ result: { status: 'error', code: 'interrupted' } });
      expect(events.filter((event) => event.type === 'tool.started').map((event) => event.toolCallId)).toEqual([
        'read-1',
        'deploy-1',
      ]);
      expect((await core.listTurns(sessionId))[0]!.status).toBe('interrupted');

      const messages = await core.listMessages(sessionId);
      const toolResults = messages.filter((message) => message.role === 'tool');
      expect(toolResults.map((message) => message.toolCallId)).toEqual(['read-1', 'deploy-1', 'after-1']);
      expect(toolResults[1]).toMatchObject({
        toolResult: { status: 'unknown', code: 'interrupted' },
        content: expect.stringMatching(/will not be replayed/),
      });

      // Opening again changes nothing more; the next turn sends a closed history and runs.
      await core.openSession(sessionId);
      expect((await core.listEvents(sessionId)).length).toBe(events.length);
      const next = await core.runTurn({ sessionId, prompt: 'what happened?' });
      expect(next.status).toBe('completed');
      expect(readFileSync(join(workspace.path, 'deployed.txt'), 'utf8')).toBe('prod');
    },
    CHILD_TIMEOUT,
  );
});

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { openStoreRuntime } from './store-runtime.js';

describe('openStoreRuntime', () => {
  it('opens a new home with its database and composes no file or command tools', async () => {
    const home = join(testdir(), 'home');
    const runtime = await openStoreRuntime({ home });
    try {
      expect(existsSync(join(home, 'clawsmith.db'))).toBe(true);
      expect(await runtime.core.listSessions()).toEqual([]);
      expect(runtime.core.toolNames).not.toContain('read_file');
      expect(runtime.core.toolNames).not.toContain('run_command');
    } finally {
      await runtime.close();
    }
  });

  it('refuses to write the workspace: an undo of files through it changes nothing', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.txt': 'first draft\n' });
    const runtime = await openStoreRuntime({ home });
    try {
      const turn = await runtime.home.checkpoints.beginTurn({
        sessionId: 's1',
        turnId: 't1',
        workspaceRoot: workspace,
      });
      await turn.recorder.beforeChange('notes.txt', {
        state: 'file',
        content: readFileSync(join(workspace, 'notes.txt')),
        mode: 0o644,
      });
      const written = Buffer.from('second draft\n');
      writeFileSync(join(workspace, 'notes.txt'), written);
      const sha256 = createHash('sha256').update(written).digest('hex');
      await turn.recorder.afterChange('notes.txt', { state: 'file', sha256, content: written });
      await turn.complete();

      await expect(runtime.home.checkpoints.undoFiles('s1', 't1')).rejects.toThrow(/does not write the workspace/);
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('second draft\n');
    } finally {
      await runtime.close();
    }
  });
});

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

describe('run_command with overlay capture, large output', () => {
  it('records an install of 20,000 files as created, and undo removes the whole tree', async () => {
    const harness = await createHarness({
      files: { 'package.json': '{}\n' },
      permissionMode: 'full-auto',
      responses: [
        {
          toolCalls: [
            call('install', 'run_command', {
              command:
                'for d in $(seq 0 199); do mkdir -p node_modules/p$d && cd node_modules/p$d && for f in $(seq 0 99); do echo $f > f$f.js; done && cd ../..; done',
              timeoutSeconds: 600,
            }),
          ],
        },
        { text: 'done' },
      ],
    });
    const before = snapshotTree(harness.workspace);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'install' });
    const created = turn.changedFiles.filter((file) => file.change === 'created');
    expect(created.length).toBe(20_000 + 201);
    expect(existsSync(join(harness.workspace, 'node_modules/p199/f99.js'))).toBe(true);
    const [completed] = await harness.eventsOf('tool.completed');
    expect(JSON.stringify(completed)).toContain('20000 files and 201 folders changed (20201 created)');
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  }, 240_000);

  it('records a 200 MB file a command wrote as created, without a copy, and undo deletes it', async () => {
    const harness = await createHarness({
      files: { 'keep.txt': 'keep\n' },
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('big', 'run_command', { command: 'head -c 209715200 /dev/zero > big.bin' })] },
        { text: 'done' },
      ],
    });
    const before = snapshotTree(harness.workspace);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'run' });
    expect(statSync(join(harness.workspace, 'big.bin')).size).toBe(209_715_200);
    expect(turn.changedFiles).toEqual([{ path: 'big.bin', change: 'created', linesAdded: 0, linesRemoved: 0 }]);
    const [point] = await harness.home.checkpoints.listRestorePoints(harness.session.id);
    expect(point!.bytes).toBe(0);
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(existsSync(join(harness.workspace, 'big.bin'))).toBe(false);
    expect(snapshotTree(harness.workspace)).toEqual(before);
  }, 240_000);
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createWorkspaceWall } from '@clawsmith/command-sandbox';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { createWorkspaceTools } from '@clawsmith/workspace-fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openClawsmithHome } from './clawsmith-home.js';
import { startFolderSwapper } from './__fixtures__/folder-swapper.js';

// Real races, bounded: a process swaps the workspace folder `d` with a link to an outside folder
// holding the same names and contents, while the file tools (and undo) work in `d`. Without the
// kernel wall some calls land outside (the probes saw 25 of 600 writes); with it none may.
const ROUNDS = 150;
const wall = createWorkspaceWall({ mode: 'bubblewrap' });
afterAll(() => wall.close());

function context(workspaceRoot: string, extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
    ...extra,
  };
}

function twinTrees(files: Record<string, string>) {
  const tree: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) tree[`d/${name}`] = content;
  const workspace = testdir(tree);
  const outside = testdir(files);
  return { workspace, outside, before: snapshotTree(outside) };
}

describe('the file wall under a racing folder swap', () => {
  it('keeps write_file, edit_file, rename_file and delete_file inside the workspace', async () => {
    const files: Record<string, string> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      files[`e${round}.txt`] = 'old text\n';
      files[`r${round}.txt`] = 'rename me\n';
      files[`v${round}.txt`] = 'victim\n';
    }
    const { workspace, outside, before } = twinTrees(files);
    const tools = new Map(createWorkspaceTools({ wall }).map((tool) => [tool.name, tool]));
    const call = async (name: string, input: Record<string, unknown>) => {
      try {
        await tools.get(name)!.execute(input as never, context(workspace));
      } catch {
        // Refusals (outside, changed, not found) are the expected answers to a lost race.
      }
    };
    const swapper = startFolderSwapper(`${workspace}/d`, outside);
    await swapper.ready;
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        await call('write_file', { path: `d/w${round}.txt`, content: 'planted\n' });
        await call('edit_file', { path: `d/e${round}.txt`, oldText: 'old text', newText: 'overwritten' });
        await call('rename_file', { from: `d/r${round}.txt`, to: `d/moved${round}.txt` });
        await call('delete_file', { path: `d/v${round}.txt` });
      }
    } finally {
      await swapper.stop();
    }
    expect(snapshotTree(outside)).toEqual(before);
    expect(readdirSync(outside).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('keeps an undo inside the workspace while the folder flips during the restore', async () => {
    const homeFolder = testdir({});
    const home = await openClawsmithHome(homeFolder, { wall });
    try {
      const files: Record<string, string> = {};
      for (let index = 0; index < 60; index += 1) files[`u${index}.txt`] = `made by the agent ${index}\n`;
      const workspace = testdir({ d: {} } as never);
      const turn = await home.checkpoints.beginTurn({
        sessionId: 's',
        turnId: 't1',
        workspaceRoot: workspace,
        messageCount: 0,
        eventSequence: 0,
        todoSnapshot: null,
      });
      const write = createWorkspaceTools({ wall }).find((tool) => tool.name === 'write_file')!;
      for (const [name, content] of Object.entries(files))
        await write.execute({ path: `d/${name}`, content }, context(workspace, { fileChanges: turn.recorder }));
      await turn.complete();
      // The outside folder holds the very files the turn created: undo would delete them there.
      const outside = testdir(files);
      const before = snapshotTree(outside);
      const gate = `${homeFolder}/gate`;
      const swapper = startFolderSwapper(`${workspace}/d`, outside, gate);
      await swapper.ready;
      try {
        const result = await home.checkpoints.undoFiles('s', 't1', {
          onProgress: async ({ index }) => {
            if (index === 0) {
              writeFileSync(gate, '');
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          },
        });
        expect(result.deleted.length + result.lateConflicts.length + result.alreadyRestored.length).toBe(60);
      } finally {
        await swapper.stop();
      }
      expect(snapshotTree(outside)).toEqual(before);
      expect(readFileSync(`${outside}/u1.txt`, 'utf8')).toBe('made by the agent 1\n');
    } finally {
      await home.close();
    }
  }, 120_000);
});

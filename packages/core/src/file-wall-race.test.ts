import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createWorkspaceWall } from '@clawsmith/command-sandbox';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { createDirectWorkspaceWall, type ToolExecutionContext, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { createWorkspaceTools } from '@clawsmith/workspace-fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openClawsmithHome } from './clawsmith-home.js';
import { startFolderSwapper, type FolderSwapper } from './__fixtures__/folder-swapper.js';

// Real races, bounded: a process swaps the workspace folder `d` with a link to an outside folder
// holding the same names and contents, while the file tools (and undo) work in `d`. The swap is
// gated to the worst moment: it flips from the end of a tool's own path checks (its call into the
// wall) until the wall answers. Each race runs twice: without the kernel wall (the in-process
// applier) it must land files outside, which shows the race is real; with the wall, never. A
// file tool's check and act are microseconds apart, so that race runs until its first escape
// (bounded), and the wall then faces twice as many rounds. Under heavy load (a parallel npm ci)
// the swapper gets the processor less often and a first escape once took more than 400 rounds;
// usually it takes 5-40.
const MIN_ROUNDS = 40;
const MAX_ROUNDS = 3_000;
const UNDONE_FILES = 60;
const kernelWall = createWorkspaceWall({ mode: 'bubblewrap' });
const inProcessWall = createDirectWorkspaceWall();
afterAll(() => kernelWall.close());

const WALLS = [
  ['without the kernel wall (in-process, the race is real)', inProcessWall, 'escapes'],
  ['with the kernel wall', kernelWall, 'holds'],
] as const;

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

/** `inner`, with the swapper flipping the folder for exactly as long as each batch is applied. */
function racedWall(inner: WorkspaceWall, swapper: () => FolderSwapper | undefined): WorkspaceWall {
  return {
    kind: inner.kind,
    close: () => inner.close(),
    async apply(batch) {
      const racing = swapper();
      await racing?.flip();
      try {
        await inner.apply(batch);
      } finally {
        await racing?.settle();
      }
    },
  };
}

/** What changed in `outside` since `before`: contents, new files (stray temporary files included), removals. */
function escapes(outside: string, before: Record<string, string>): string[] {
  const after = snapshotTree(outside);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((path) => before[path] !== after[path]);
}

/** The files one round's calls work on, with the same names and contents in `d/` and outside. */
function roundFiles(round: number): Record<string, string> {
  return { [`e${round}.txt`]: 'old text\n', [`r${round}.txt`]: 'rename me\n', [`v${round}.txt`]: 'victim\n' };
}

/** Whether one round's calls changed anything outside (checked by name: cheap enough for every round). */
function roundEscaped(outside: string, round: number): boolean {
  return (
    existsSync(`${outside}/w${round}.txt`) ||
    readFileSync(`${outside}/e${round}.txt`, 'utf8') !== 'old text\n' ||
    !existsSync(`${outside}/r${round}.txt`) ||
    existsSync(`${outside}/moved${round}.txt`) ||
    !existsSync(`${outside}/v${round}.txt`)
  );
}

/**
 * Races the four mutating file tools, one call of each per round, against the swapper; stops
 * after `rounds` rounds, or at the first round that changed the outside folder when
 * `stopAtEscape`. Each round's files are made just before it, while the folder is settled, so
 * a long race costs no more per round than a short one. Returns the rounds run and what changed
 * outside.
 */
async function raceFileTools(
  wall: WorkspaceWall,
  rounds: number,
  stopAtEscape: boolean,
): Promise<{ rounds: number; escaped: string[]; strayTemporaryFiles: string[] }> {
  const workspace = testdir({ d: {} } as never);
  const outside = testdir({});
  // What the outside folder holds when nothing landed there: the same files, never raced.
  const untouched = testdir({});
  const swapper = startFolderSwapper(`${workspace}/d`, outside);
  await swapper.ready;
  const tools = new Map(
    createWorkspaceTools({ wall: racedWall(wall, () => swapper) }).map((tool) => [tool.name, tool]),
  );
  const call = async (name: string, input: Record<string, unknown>) => {
    try {
      await tools.get(name)!.execute(input as never, context(workspace));
    } catch {
      // Refusals (outside, changed, not found) are the expected answers to a lost race.
    }
  };
  let round = 0;
  try {
    while (round < rounds) {
      for (const [name, content] of Object.entries(roundFiles(round))) {
        writeFileSync(`${workspace}/d/${name}`, content);
        writeFileSync(`${outside}/${name}`, content);
        writeFileSync(`${untouched}/${name}`, content);
      }
      await call('write_file', { path: `d/w${round}.txt`, content: 'planted\n' });
      await call('edit_file', { path: `d/e${round}.txt`, oldText: 'old text', newText: 'overwritten' });
      await call('rename_file', { from: `d/r${round}.txt`, to: `d/moved${round}.txt` });
      await call('delete_file', { path: `d/v${round}.txt` });
      const escapedNow = roundEscaped(outside, round);
      round += 1;
      if (stopAtEscape && escapedNow) break;
    }
  } finally {
    await swapper.stop();
  }
  return {
    rounds: round,
    escaped: escapes(outside, snapshotTree(untouched)),
    strayTemporaryFiles: readdirSync(outside).filter((name) => name.endsWith('.tmp')),
  };
}

describe('the file tools under a racing folder swap', () => {
  // How many rounds the race needed to land outside without the wall: the wall must hold longer.
  let roundsToEscape = MIN_ROUNDS;

  it(`without the kernel wall (in-process), a call lands outside within ${MAX_ROUNDS} rounds: the race is real`, async () => {
    const race = await raceFileTools(inProcessWall, MAX_ROUNDS, true);
    expect(race.escaped.length).toBeGreaterThan(0);
    roundsToEscape = race.rounds;
  }, 240_000);

  it('with the kernel wall, nothing lands outside in twice as many rounds of the same race', async () => {
    const race = await raceFileTools(kernelWall, Math.max(MIN_ROUNDS, 2 * roundsToEscape), false);
    expect(race.escaped).toEqual([]);
    expect(race.strayTemporaryFiles).toEqual([]);
  }, 240_000);
});

describe.each(WALLS)('undo under a racing folder swap %s', (_name, wall, expected) => {
  it(`the outside folder ${expected === 'holds' ? 'never changes' : 'changes'}`, async () => {
    let swapper: FolderSwapper | undefined;
    const raced = racedWall(wall, () => swapper);
    const homeFolder = testdir({});
    const home = await openClawsmithHome(homeFolder, { wall: raced });
    try {
      const files: Record<string, string> = {};
      for (let index = 0; index < UNDONE_FILES; index += 1) files[`u${index}.txt`] = `made by the agent ${index}\n`;
      const workspace = testdir({ d: {} } as never);
      const turn = await home.checkpoints.beginTurn({
        sessionId: 's',
        turnId: 't1',
        workspaceRoot: workspace,
        messageCount: 0,
        eventSequence: 0,
        todoSnapshot: null,
      });
      const write = createWorkspaceTools({ wall: raced }).find((tool) => tool.name === 'write_file')!;
      for (const [name, content] of Object.entries(files))
        await write.execute({ path: `d/${name}`, content }, context(workspace, { fileChanges: turn.recorder }));
      await turn.complete();
      // The outside folder holds the very files the turn created: undo would delete them there.
      const outside = testdir(files);
      const before = snapshotTree(outside);
      swapper = startFolderSwapper(`${workspace}/d`, outside);
      await swapper.ready;
      try {
        const result = await home.checkpoints.undoFiles('s', 't1');
        if (expected === 'holds')
          expect(result.deleted.length + result.lateConflicts.length + result.alreadyRestored.length).toBe(
            UNDONE_FILES,
          );
      } catch (error) {
        if (expected === 'holds') throw error;
      } finally {
        await swapper.stop();
        swapper = undefined;
      }
      const escaped = escapes(outside, before);
      if (expected === 'holds') {
        expect(escaped).toEqual([]);
        expect(readFileSync(`${outside}/u1.txt`, 'utf8')).toBe('made by the agent 1\n');
      } else {
        expect(escaped.length).toBeGreaterThan(0);
      }
    } finally {
      await home.close();
    }
  }, 180_000);
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';

const DAY = 24 * 60 * 60 * 1000;
const E2E_TIMEOUT = 120_000;

/** A home with real sessions: `turns[i]` turns in session i, each writing one file; all made 40 days old. */
async function agedHome(turns: readonly number[]) {
  const home = testdir();
  const opened = await openClawsmithHome(home);
  const sessionIds: string[] = [];
  try {
    for (const [index, count] of turns.entries()) {
      const workspace = testdir();
      const core = createAgentCore({
        db: opened.db,
        checkpoints: opened.checkpoints,
        artifacts: opened.artifacts,
        builtinTools: createBuiltinTools(),
        permissionMode: 'accept-edits',
        retention: false,
        provider: createScriptedProvider({
          script: {
            responses: Array.from({ length: count }, (_, turn) => [
              {
                toolCalls: [
                  {
                    id: `w${turn}`,
                    name: 'write_file',
                    arguments: { path: `s${index}-${turn}.txt`, content: `${index}-${turn}\n` },
                  },
                ],
              },
              { text: 'ok' },
            ]).flat(),
          },
        }),
      });
      const session = await core.createSession({ workspaceRoot: workspace });
      for (let turn = 0; turn < count; turn += 1) await core.runTurn({ sessionId: session.id, prompt: `turn ${turn}` });
      await core.close();
      sessionIds.push(session.id);
    }
    await opened.db
      .updateTable('checkpoint_restore_point')
      .set((expression) => ({ created_at: expression('created_at', '-', 40 * DAY) }))
      .execute();
  } finally {
    await opened.close();
  }
  return { home, sessionIds };
}

describe('clawsmith gc', () => {
  it(
    'a dry run says what would go and changes nothing; the real run removes it and keeps the newest five per session',
    async () => {
      const { home, sessionIds } = await agedHome([7, 3]);
      const dry = await runCli(['gc', '--dry-run', '--json'], { home });
      expect(dry.code).toBe(0);
      const [preview] = parseJsonLines(dry.stdout);
      expect(preview).toMatchObject({ dryRun: true, restorePointsRemoved: 2, restorePointsKept: 8 });
      const listed = await runCli(['checkpoints', '--session', sessionIds[0]!, '--json'], { home });
      expect(parseJsonLines(listed.stdout)).toHaveLength(7);

      const human = await runCli(['gc'], { home });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Removed 2 restore points \(2 stored file versions, 8 B\)/);
      expect(human.stdout).toContain(`${sessionIds[0]}: 2 restore points`);
      expect(human.stdout).toMatch(/Kept 8 restore points/);
      const after = await runCli(['checkpoints', '--session', sessionIds[0]!, '--json'], { home });
      expect(parseJsonLines(after.stdout).map((point) => point.sequence)).toEqual([3, 4, 5, 6, 7]);
      const again = parseJsonLines((await runCli(['gc', '--json'], { home })).stdout)[0];
      expect(again).toMatchObject({ restorePointsRemoved: 0, restorePointsKept: 8 });
    },
    E2E_TIMEOUT,
  );

  it('says there is nothing to collect in a home that does not exist, and creates none', async () => {
    const parent = testdir();
    const missing = join(parent, 'never-made');
    const result = await runCli(['gc'], { home: missing, cwd: parent });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to collect');
    expect(existsSync(missing)).toBe(false);
  });
});

describe('clawsmith sessions delete', () => {
  it(
    'removes one session with its restore points; the other stays; a second delete says session_not_found',
    async () => {
      const { home, sessionIds } = await agedHome([2, 1]);
      const deleted = await runCli(['sessions', 'delete', sessionIds[0]!, '--json'], { home });
      expect(deleted.code).toBe(0);
      expect(parseJsonLines(deleted.stdout)[0]).toMatchObject({ sessionId: sessionIds[0], restorePointsRemoved: 2 });
      const left = parseJsonLines((await runCli(['sessions', '--json'], { home })).stdout);
      expect(left.map((session) => session.id)).toEqual([sessionIds[1]]);
      const twice = await runCli(['sessions', 'delete', sessionIds[0]!], { home });
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain('session_not_found');
    },
    E2E_TIMEOUT,
  );
});

// A restore from the web racing a `clawsmith undo` of the same turn in another process: exactly
// one applies, the other is refused with a 409 (or the CLI's error code), and the workspace, the
// journal and the conversation end in the one state the winner left.
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree } from '@clawsmith/test-utils';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createWebHarness, type WebHarness } from '../../src/__fixtures__/web-harness.js';
import { errorCode, spawnClawsmith } from './clawsmith-process.js';

const FILES = 40;
/**
 * When the web restore is sent, per round: after the CLI child opened the database, this share
 * of the time the previous round's child took from there to its exit. From "the web first, the
 * two overlapping" to "the CLI well ahead", whatever the machine's speed.
 */
const WEB_DELAY_SHARES = [0, 0.5, 1, 1.5];
/** The refusals a loser may get: the other side's batch is done, or still being applied. */
const LOSING_CODES = ['checkpoint_already_undone', 'checkpoint_undo_in_progress', 'turn_already_undone'];

const path = (round: number, index: number) => `round-${round}-file-${String(index).padStart(3, '0')}.txt`;

/** One turn that creates FILES new files. */
function createFiles(round: number) {
  return [
    {
      toolCalls: Array.from({ length: FILES }, (_, index) => ({
        name: 'write_file',
        arguments: { path: path(round, index), content: `round ${round} file ${index}\n`.repeat(50) },
      })),
    },
    { text: `round ${round} done` },
  ];
}

/** Resolves once process `pid` holds `file` open (it has opened the home and is about to act). */
async function opened(pid: number, file: string): Promise<void> {
  // A child node takes seconds to start on a loaded machine (over 30 s at a load average of 34).
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return;
        } catch {
          // The descriptor closed while we looked.
        }
      }
    } catch {
      return; // The process already ended.
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`process ${pid} never opened ${file}`);
}

async function applyingJournals(web: WebHarness): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`select count(*) as count from checkpoint_restore_journal where state = 'applying'`.execute(web.home.db);
  return Number(rows[0]!.count);
}

async function restoredEvents(web: WebHarness, sessionId: string, turnId: string): Promise<number> {
  const events = await web.store.listEvents(sessionId);
  return events.filter((event) => event.type === 'session.restored' && event.turnId === turnId).length;
}

describe('POST /api/sessions/:sessionId/turns/:turnId/restore racing `clawsmith undo`', () => {
  it.each(['files', 'all', 'session'] as const)(
    'scope %s: exactly one of the two applies, the other is refused, and nothing is left half-done',
    async (scope) => {
      const responses = Array.from({ length: WEB_DELAY_SHARES.length }, (_, round) => createFiles(round)).flat();
      const web = await createWebHarness({ responses, files: { 'README.md': 'kept as it is\n' } });
      const database = join(web.homePath, 'clawsmith.db');
      const session = await web.core.createSession({ workspaceRoot: web.workspace });
      const winners: string[] = [];
      let cliAfterOpenMs = 0;
      for (let round = 0; round < WEB_DELAY_SHARES.length; round += 1) {
        const before = snapshotTree(web.workspace);
        const turn = await web.core.runTurn({ sessionId: session.id, prompt: `round ${round}` });
        expect(turn.status).toBe('completed');
        expect(turn.changedFiles).toHaveLength(FILES);
        const after = snapshotTree(web.workspace);
        const point = await web.home.checkpoints.getRestorePoint(session.id, turn.turnId);

        const cli = spawnClawsmith(web.homePath, ['undo', scope, turn.turnId, '--session', session.id, '--json']);
        await opened(cli.child.pid!, database);
        const openedAt = performance.now();
        await new Promise((resolve) => setTimeout(resolve, WEB_DELAY_SHARES[round]! * cliAfterOpenMs));
        const [answer, exit] = await Promise.all([
          web.api(`/api/sessions/${session.id}/turns/${turn.turnId}/restore`, { json: { scope } }),
          cli.exited.then((exit) => {
            cliAfterOpenMs = performance.now() - openedAt;
            return exit;
          }),
        ]);
        const body = (await answer.json()) as { error?: { code: string }; restoredPaths?: string[] };

        const webApplied = answer.status === 200;
        const cliApplied = exit.code === 0;
        expect(
          Number(webApplied) + Number(cliApplied),
          `round ${round}: web ${answer.status}, cli ${exit.stderr}`,
        ).toBe(1);
        if (webApplied) {
          expect(errorCode(exit.stderr), exit.stderr).toBeOneOf(LOSING_CODES);
          if (scope !== 'session') expect(body.restoredPaths).toHaveLength(FILES);
        } else {
          expect(answer.status).toBe(409);
          expect(body.error!.code).toBeOneOf(LOSING_CODES);
          const result = JSON.parse(exit.stdout) as { restoredPaths: string[] };
          if (scope !== 'session') expect(result.restoredPaths).toHaveLength(FILES);
        }
        winners.push(webApplied ? `web (cli: ${errorCode(exit.stderr)})` : `cli (web: ${body.error!.code})`);

        // One consistent state: the files are byte for byte what the winner left (before the
        // turn when files were restored, untouched otherwise), no journal is half-applied, and
        // the conversation was cut exactly once.
        expect(snapshotTree(web.workspace)).toEqual(scope === 'session' ? after : before);
        expect(await applyingJournals(web)).toBe(0);
        const undone = (await web.home.checkpoints.listRestorePoints(session.id)).find(
          (candidate) => candidate.turnId === turn.turnId,
        );
        expect(undone?.undone).toBe(scope !== 'session');
        if (scope !== 'files') {
          expect(await web.store.getTurn(session.id, turn.turnId)).toBeUndefined();
          expect(await web.store.countMessages(session.id)).toBe(point.messageCount);
          expect(await web.store.lastSequence(session.id)).toBe(point.eventSequence + 1);
        }
        expect(await restoredEvents(web, session.id, turn.turnId)).toBe(1);
      }
      console.info(`restore race, scope ${scope}: by round ${winners.join(', ')}`);
    },
    600_000,
  );
});

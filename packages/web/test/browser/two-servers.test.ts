// Two machines, one PostgreSQL home: two web servers, each with a home folder of its own, and a
// `clawsmith run` in a third. A turn run through server A, and one run by the separate process,
// appear live on server B's page in a real Chromium; two people restoring the same turn from the
// two servers: one wins, the other is refused, and the files end as the winner left them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { BROWSER_TEST_TIMEOUT, clawsmithRun, screenshot, signedInPage, useBrowser } from './browser-harness.js';

/** The codes a restore that lost the race may answer with. */
const LOSING_CODES = ['checkpoint_already_undone', 'checkpoint_undo_in_progress', 'turn_already_undone'];

describe.runIf(testDatabaseEngine() === 'postgres')(
  'two web servers on one PostgreSQL home',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    const browser = useBrowser();

    it('a turn through server A and a turn of another process stream live to server B; one of two restores wins', async () => {
      const notes = 'notes.txt';
      // Machine A: its own home folder, the shared database (CLAWSMITH_DATABASE_URL of this test).
      const serverA = await createWebHarness({
        files: { 'README.md': 'kept as it is\n' },
        responses: [
          { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: notes, content: 'written on A\n' } }] },
          { text: 'Machine A wrote the notes.' },
        ],
      });
      // Machine B: another home folder, the same database.
      const serverB = await createWebHarness({ responses: [{ text: 'never asked' }] });
      expect(serverB.homePath).not.toBe(serverA.homePath);
      const session = await serverA.core.createSession({ workspaceRoot: serverA.workspace, title: 'shared' });

      const page = await signedInPage(browser(), serverB, `#/sessions/${session.id}`);
      await page.getByRole('textbox', { name: 'Prompt for a new turn' }).waitFor();

      const started = await serverA.api(`/api/sessions/${session.id}/turns`, { json: { prompt: 'write the notes' } });
      expect(started.status).toBe(202);
      const { turnId } = (await started.json()) as { turnId: string };
      await page.getByText('Machine A wrote the notes.').waitFor();
      await page.getByText('write the notes').first().waitFor();
      expect(readFileSync(join(serverA.workspace, notes), 'utf8')).toBe('written on A\n');

      // A third machine: a `clawsmith run` process with a home folder of its own.
      const machineC = createTestdir({}, 'clawsmith-home-');
      onTestFinished(() => machineC.remove());
      const run = await clawsmithRun(machineC.path, {
        workspace: serverA.workspace,
        session: session.id,
        prompt: 'a word from a terminal',
        responses: [{ text: 'The terminal on machine C answered.' }],
      });
      expect(run.code, run.stderr).toBe(0);
      await page.getByText('The terminal on machine C answered.').waitFor();
      await screenshot(page, 'two-servers-live');

      // Two people restore A's turn at once, one from each server.
      const restore = (server: typeof serverA) =>
        server.api(`/api/sessions/${session.id}/turns/${turnId}/restore`, { json: { scope: 'all' } });
      const answers = await Promise.all([restore(serverA), restore(serverB)]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.status === 409)!;
      const body = (await loser.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBeOneOf(LOSING_CODES);
      expect(body.error.message.length).toBeGreaterThan(20);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect(((await winner.json()) as { restoredPaths: string[] }).restoredPaths).toEqual([notes]);

      // The files are what they were before A's turn, the conversation was cut once, and B's page,
      // told to reload, no longer shows what the restore undid.
      expect(existsSync(join(serverA.workspace, notes))).toBe(false);
      expect(readFileSync(join(serverA.workspace, 'README.md'), 'utf8')).toBe('kept as it is\n');
      const events = await serverB.store.listEvents(session.id);
      expect(events.filter((event) => event.type === 'session.restored')).toHaveLength(1);
      expect(events.some((event) => event.type === 'assistant.message' && event.text.includes('Machine A'))).toBe(
        false,
      );
      await page.getByText('Machine A wrote the notes.').waitFor({ state: 'detached' });
    });
  },
);

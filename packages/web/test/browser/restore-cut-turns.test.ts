import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

const writes = (id: string, path: string) => [
  { toolCalls: [{ id, name: 'write_file', arguments: { path, content: `${path}\n` } }] },
  { text: `Wrote ${path}.` },
];

describe('a files restore after a conversation restore', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('lists the files of the turns the conversation restore cut, and puts back exactly what it listed', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'write x',
      responses: writes('w1', 'x.txt'),
    });
    await scriptedTurn(home.path, {
      workspace: workspace.path,
      session,
      prompt: 'write y',
      responses: writes('w2', 'y.txt'),
    });
    const web = await createWebHarness({ homePath: home.path });
    // Take turn 2 out of the conversation only: y.txt stays, and its restore point is not undone.
    const listed = (await (await web.api(`/api/sessions/${session}/turns`)).json()) as {
      turns: { turnId: string; ordinal: number }[];
    };
    const second = listed.turns.find((turn) => turn.ordinal === 2)!;
    const cut = await web.api(`/api/sessions/${session}/turns/${second.turnId}/restore`, {
      method: 'POST',
      json: { scope: 'session' },
    });
    expect(cut.status).toBe(200);
    expect(existsSync(join(workspace.path, 'y.txt'))).toBe(true);
    // The next turn takes number 2 again.
    await scriptedTurn(home.path, {
      workspace: workspace.path,
      session,
      prompt: 'write z',
      responses: writes('w3', 'z.txt'),
    });

    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByRole('region', { name: 'Checkpoint of turn 2' }).waitFor();
    const card = page.getByRole('region', { name: 'Checkpoint of turn 1' });
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('radio', { name: 'Files' }).check();
    await card.getByRole('button', { name: 'Restore…' }).click();
    const dialog = card.getByRole('alertdialog', { name: 'Confirm restore' });
    await dialog.waitFor();
    const said = (await dialog.textContent()) ?? '';
    expect(said).toContain('3 files will be put back as they were before turn 1: x.txt, y.txt, z.txt.');
    expect(said).toContain(
      'This includes the files of 1 turn an earlier restore took out of the conversation: turn 2 "write y".',
    );
    expect(
      await dialog.getByRole('list', { name: 'Turns this restore undoes' }).locator('li').allTextContents(),
    ).toEqual([
      'Turn 1: write x — puts back x.txt',
      'Turn 2 (already taken out of the conversation by an earlier restore): write y — puts back y.txt',
      'Turn 2: write z — puts back z.txt',
    ]);
    const promised = (await dialog.locator('.restore-files').allTextContents()).flatMap((files) => files.split(', '));
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Confirm restore' }).click();

    // What the store put back is exactly what the confirmation said, on the page and on disk.
    const result = page.getByRole('status', { name: 'Restore result' });
    await result.waitFor();
    const putBack = await result.getByRole('list', { name: 'Files put back' }).locator('li').allTextContents();
    expect(putBack).toEqual([...promised].sort());
    for (const path of ['x.txt', 'y.txt', 'z.txt']) expect(existsSync(join(workspace.path, path)), path).toBe(false);
  });
});

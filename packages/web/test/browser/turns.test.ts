import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { screenshot, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

describe('turns from the page', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('runs a prompt live, answers approvals from the page, stops a running call, and forks after a turn', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': 'a\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'the first turn, from a terminal',
      responses: [{ text: 'first turn done' }],
    });
    // The server's own model: it asks before running commands (permission mode `default`).
    const web = await createWebHarness({
      homePath: home.path,
      permissionMode: 'default',
      responses: [
        { toolCalls: [{ id: 'p1', name: 'run_command', arguments: { command: 'echo approved > out.txt' } }] },
        { text: 'The command ran.' },
        { toolCalls: [{ id: 'p2', name: 'run_command', arguments: { command: 'echo refused > no.txt' } }] },
        { text: 'It was refused.' },
        { toolCalls: [{ id: 'p3', name: 'run_command', arguments: { command: 'sleep 60' } }] },
        { text: 'never reached' },
      ],
    });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByText('first turn done').waitFor();
    const send = async (prompt: string) => {
      await page.getByRole('textbox', { name: 'Prompt for a new turn' }).fill(prompt);
      await page.getByRole('button', { name: 'Send' }).click();
    };
    // Approvals are answered in the call's own card in the transcript.
    const approval = page
      .getByRole('log', { name: 'Transcript' })
      .getByRole('article', { name: 'Tool call run_command: waiting' })
      .getByRole('article', { name: 'Approval for run_command' });

    await send('write out.txt');
    await page.getByText('write out.txt').waitFor();
    await approval.waitFor();
    expect(await approval.textContent()).toContain('echo approved > out.txt');
    expect(await page.getByRole('region', { name: 'Waiting for your approval' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'approval');
    await approval.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.getByText('The command ran.').waitFor();
    expect(readFileSync(join(workspace.path, 'out.txt'), 'utf8')).toBe('approved\n');
    await approval.waitFor({ state: 'detached' });

    await send('write no.txt');
    await approval.waitFor();
    // Typing in the prompt box never answers; with the card focused, D denies.
    await page.getByRole('textbox', { name: 'Prompt for a new turn' }).pressSequentially('dad');
    expect(await approval.getByRole('button', { name: 'Deny' }).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Prompt for a new turn' }).fill('');
    await approval.focus();
    await page.keyboard.press('d');
    await page.getByText('It was refused.').waitFor();
    expect(existsSync(join(workspace.path, 'no.txt'))).toBe(false);
    expect(await page.getByRole('article', { name: 'Tool call run_command: denied' }).count()).toBe(1);

    await send('wait a minute');
    await approval.waitFor();
    expect(await approval.textContent()).toContain('sleep 60');
    await approval.getByRole('button', { name: 'Always allow in this session' }).click();
    await page.getByRole('article', { name: 'Tool call run_command: running' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('article', { name: 'Tool call run_command: cancelled' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });

    // Fork after the first turn: a new session with that turn only.
    await page.getByRole('button', { name: 'Fork after turn 1' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/sessions/') && !url.hash.endsWith(session));
    await page.getByText('This session was forked from another one.').waitFor();
    await page.getByText('first turn done').waitFor();
    expect(await page.getByText('write out.txt').count()).toBe(0);
    const forks = (await (await web.api('/api/sessions')).json()) as { sessions: { parentSessionId: string | null }[] };
    expect(forks.sessions.filter((listed) => listed.parentSessionId === session)).toHaveLength(1);
  });
});

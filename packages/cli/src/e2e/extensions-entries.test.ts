import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { connectServe } from './mcp-serve-harness.js';
import { pluginTree } from './plugin-fixture.js';
import { startWeb, stop } from './web-process.js';

type Event = Record<string, unknown>;

/** A home with a trusted plugin (greet always loaded), an untrusted one, and a note; a workspace with a skill. */
async function extendedSetup() {
  const scratch = testdir();
  const trustedMarker = join(scratch, 'trusted-marker');
  const untrustedMarker = join(scratch, 'untrusted-marker');
  const greeter = testdir(pluginTree('greeter', trustedMarker));
  const stranger = testdir(pluginTree('stranger', untrustedMarker));
  const home = testdir({ 'memory/release.md': '# Releases\n\nRelease day is Thursday; tag from main only.\n' });
  const workspace = testdir({
    '.agents/skills/release-notes/SKILL.md':
      '---\nname: release-notes\ndescription: Write release notes from the changelog\n---\n# Release notes\n\nUse template.md.\n',
    '.agents/skills/release-notes/template.md': '## What changed\n',
  });
  const trust = await runCli(['plugins', 'trust', greeter, '--always-loaded', 'greeter_greet'], { home });
  expect([trust.code, trust.stderr]).toEqual([0, '']);
  const configuration = JSON.parse(readFileSync(join(home, 'plugins.json'), 'utf8')) as {
    plugins: Record<string, unknown>;
  };
  configuration.plugins.stranger = { path: stranger };
  writeFileSync(join(home, 'plugins.json'), JSON.stringify(configuration));
  return { home, workspace, trustedMarker, untrustedMarker };
}

// Each test runs the built binary several times; a loaded shared machine needs the room.
describe('extensions in clawsmith web and clawsmith mcp serve', { timeout: 180_000 }, () => {
  it('mcp serve offers skill_view, memory_search and the trusted plugin tool to an MCP client', async () => {
    const setup = await extendedSetup();
    const served = await connectServe({
      home: setup.home,
      workspace: setup.workspace,
      extraArgs: ['--permission-mode', 'full-auto'],
    });
    const names = (await served.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['skill_view', 'greeter_greet']));
    expect(names).not.toContain('memory_search');
    expect(names).not.toContain('greeter_fail');
    expect(names).not.toContain('stranger_greet');

    const skill = await served.call('skill_view', { name: 'release-notes' });
    expect(skill.isError).toBe(false);
    expect(served.text(skill)).toContain('Use template.md.');
    const file = await served.call('skill_view', { name: 'release-notes', file: 'template.md' });
    expect(served.text(file)).toContain('## What changed');
    const escape = await served.call('skill_view', { name: 'release-notes', file: '../../..' });
    expect(escape.isError).toBe(true);
    expect(escape.structuredContent).toMatchObject({ status: 'error', code: 'skill_path_outside' });

    const greet = await served.call('greeter_greet', { who: 'Ada' });
    expect([greet.isError, served.text(greet)]).toEqual([false, 'Hello, Ada, from greeter!']);
    expect((await served.call('search_tools', { query: 'select:memory_search,greeter_fail' })).isError).toBe(false);
    const memory = await served.call('memory_search', { query: 'release day' });
    expect(served.text(memory)).toContain('memory/release.md:3\n  Release day is Thursday; tag from main only.');
    const fail = await served.call('greeter_fail');
    expect(fail.structuredContent).toMatchObject({ status: 'error', code: 'tool_failed' });

    expect(existsSync(setup.trustedMarker)).toBe(true);
    expect(existsSync(setup.untrustedMarker)).toBe(false);
  });

  it('web runs a turn with the skill list in the same system prompt as run, skill_view and the plugin tool', async () => {
    const setup = await extendedSetup();
    const first = await runCli(
      [
        'run',
        '--json',
        '--workspace',
        setup.workspace,
        '--script',
        writeScript(setup.home, [{ text: 'ready' }], 'first.json'),
        'start',
      ],
      { home: setup.home },
    );
    expect(first.code).toBe(0);
    const firstEvents = parseJsonLines(first.stdout);
    const sessionId = String(firstEvents[0]!.sessionId);
    const runRequest = firstEvents.find((event) => event.type === 'request.started')!;

    const script = writeScript(
      setup.home,
      [
        { toolCalls: [{ id: 'web_skill', name: 'skill_view', arguments: { name: 'release-notes' } }] },
        { toolCalls: [{ id: 'web_greet', name: 'greeter_greet', arguments: { who: 'Grace' } }] },
        { text: 'Done from the web.' },
      ],
      'web.json',
    );
    const web = await startWeb(setup.home, ['--script', script, '--permission-mode', 'full-auto']);
    const api = (path: string, body?: unknown) =>
      fetch(`${web.origin}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const started = await api(`/api/sessions/${sessionId}/turns`, { prompt: 'notes' });
    expect(started.status).toBe(202);
    const { turnId } = (await started.json()) as { turnId: string };
    let events: Event[] = [];
    await expect
      .poll(
        async () => {
          events = ((await (await api(`/api/sessions/${sessionId}/events?limit=1000`)).json()) as { events: Event[] })
            .events;
          return events.find((event) => event.type === 'turn.completed' && event.turnId === turnId)?.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('completed');
    const turnEvents = events.filter((event) => event.turnId === turnId);
    const request = turnEvents.find((event) => event.type === 'request.started')!;
    expect(request.toolNames).toEqual(expect.arrayContaining(['skill_view', 'greeter_greet']));
    // The same builder as run: default instructions, project files and the skill list.
    expect(request.systemPromptSha256).toBe(runRequest.systemPromptSha256);
    expect(request.systemPromptBytes).toBe(runRequest.systemPromptBytes);
    const completed = (id: string) =>
      turnEvents.find((event) => event.type === 'tool.completed' && event.toolCallId === id) as
        { result: { status: string }; output: string } | undefined;
    expect(completed('web_skill')?.result.status).toBe('success');
    expect(completed('web_skill')?.output).toContain('Use template.md.');
    expect(completed('web_greet')).toMatchObject({
      result: { status: 'success' },
      output: 'Hello, Grace, from greeter!',
    });
    expect(web.output().stderr).toContain('Plugin stranger is listed but not trusted');
    expect(existsSync(setup.untrustedMarker)).toBe(false);
    stop(web.child);
    expect(await web.exited).toBe(0);
  });
});

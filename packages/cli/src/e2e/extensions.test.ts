import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { pluginTree } from './plugin-fixture.js';

type Event = Record<string, unknown>;
const completed = (events: Event[], id: string) =>
  events.find((event) => event.type === 'tool.completed' && event.toolCallId === id) as
    { result: { status: string; code?: string }; output: string } | undefined;

const plugin = pluginTree;

// Each test runs the built binary a few times; a loaded shared machine needs the room.
describe('clawsmith with skills, memory and plugins', { timeout: 120_000 }, () => {
  it('a scripted session reads a skill, searches memory and calls a trusted plugin tool; an untrusted plugin never runs', async () => {
    const scratch = testdir();
    const trustedMarker = join(scratch, 'trusted-marker');
    const changedMarker = join(scratch, 'changed-marker');
    const listedMarker = join(scratch, 'listed-marker');
    const greeter = testdir(plugin('greeter', trustedMarker));
    const changing = testdir(plugin('changing', changedMarker));
    const listed = testdir(plugin('listed', listedMarker));
    const home = testdir({
      'memory/release.md': '# Releases\n\nRelease day is Thursday; tag from main only.\n',
      'memory/other.md': '# Lunch\n\nTacos on Friday.\n',
    });
    const workspace = testdir({
      '.agents/skills/release-notes/SKILL.md':
        '---\nname: release-notes\ndescription: Write release notes from the changelog\n---\n# Release notes\n\nUse template.md.\n',
      '.agents/skills/release-notes/template.md': '## What changed\n',
    });

    for (const [target, extra] of [
      [greeter, ['--always-loaded', 'greeter_greet']],
      [changing, []],
    ] as const) {
      const trust = await runCli(['plugins', 'trust', target, ...extra], { home });
      expect([trust.code, trust.stderr]).toEqual([0, '']);
      expect(trust.stdout).toMatch(/^Trusted \S+ \(.+\) as sha256-[0-9a-f]{64}; tool modules: \.\/tools\.mjs\.\n$/);
    }
    writeFileSync(
      join(changing, 'tools.mjs'),
      `${plugin('changing', changedMarker)['tools.mjs'] as string}// edited\n`,
    );
    const configuration = JSON.parse((await import('node:fs')).readFileSync(join(home, 'plugins.json'), 'utf8')) as {
      version: 1;
      plugins: Record<string, unknown>;
    };
    configuration.plugins.listed = { path: listed };
    writeFileSync(join(home, 'plugins.json'), JSON.stringify(configuration));

    const list = await runCli(['plugins', 'list'], { home });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('greeter  loaded  tools: greeter_greet, greeter_fail (always loaded: greeter_greet)');
    expect(list.stdout).toContain('changing  changed');
    expect(list.stdout).toContain('listed  untrusted');

    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_skill', name: 'skill_view', arguments: { name: 'release-notes' } }] },
      {
        toolCalls: [{ id: 'call_file', name: 'skill_view', arguments: { name: 'release-notes', file: 'template.md' } }],
      },
      {
        toolCalls: [{ id: 'call_escape', name: 'skill_view', arguments: { name: 'release-notes', file: '../../..' } }],
      },
      {
        toolCalls: [
          { id: 'call_activate', name: 'search_tools', arguments: { query: 'select:memory_search,greeter_fail' } },
        ],
      },
      {
        toolCalls: [{ id: 'call_memory', name: 'memory_search', arguments: { query: 'when is "release day" AND (' } }],
      },
      { toolCalls: [{ id: 'call_greet', name: 'greeter_greet', arguments: { who: 'Ada' } }] },
      { toolCalls: [{ id: 'call_fail', name: 'greeter_fail', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'release'],
      { home },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Plugin changing changed since it was trusted (${changing})`);
    expect(run.stderr).toContain('Plugin listed is listed but not trusted');
    const events = parseJsonLines(run.stdout);
    const requests = events.filter((event) => event.type === 'request.started');
    expect(requests[0]?.toolNames).toEqual(expect.arrayContaining(['skill_view', 'greeter_greet']));
    expect(requests[0]?.toolNames).not.toContain('memory_search');
    expect(requests[0]?.toolNames).not.toContain('greeter_fail');
    expect(completed(events, 'call_skill')?.result.status).toBe('success');
    expect(completed(events, 'call_skill')?.output).toContain('Use template.md.');
    expect(completed(events, 'call_file')?.output).toContain('## What changed');
    expect(completed(events, 'call_escape')?.result).toMatchObject({ status: 'error', code: 'skill_path_outside' });
    expect(completed(events, 'call_memory')?.result.status).toBe('success');
    expect(completed(events, 'call_memory')?.output).toContain(
      'memory/release.md:3\n  Release day is Thursday; tag from main only.',
    );
    expect(completed(events, 'call_memory')?.output).not.toContain('Tacos');
    expect(completed(events, 'call_greet')).toMatchObject({
      result: { status: 'success' },
      output: 'Hello, Ada, from greeter!',
    });
    expect(completed(events, 'call_fail')).toMatchObject({
      result: { status: 'error', code: 'tool_failed' },
      output: 'the plugin tool broke',
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed' });
    expect(existsSync(trustedMarker)).toBe(true);
    expect(existsSync(changedMarker)).toBe(false);
    expect(existsSync(listedMarker)).toBe(false);
  });

  it('two plugins with a tool of the same name stop startup with an error naming both', async () => {
    const scratch = testdir();
    const first = testdir(plugin('first', join(scratch, 'm1'), 'shared'));
    const second = testdir(plugin('second', join(scratch, 'm2'), 'shared'));
    const home = testdir();
    for (const target of [first, second]) expect((await runCli(['plugins', 'trust', target], { home })).code).toBe(0);
    const script = writeScript(home, [{ text: 'never' }]);
    const run = await runCli(['run', '--script', script, '--workspace', testdir(), 'hi'], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Two tools are named "shared_greet": one from plugin:first (${first}) and one from plugin:second (${second})`,
    );
    expect(run.stderr).toContain('[duplicate_tool]');
    const untrust = await runCli(['plugins', 'untrust', 'second'], { home });
    expect([untrust.code, untrust.stdout]).toEqual([0, 'second is no longer trusted.\n']);
  });

  it('clawsmith skills lists the skills and reports an invalid one with its file and line', async () => {
    const home = testdir({
      'skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the service\n---\n',
      'skills/broken/SKILL.md': '---\nname: broken\ndescription: [oops\n---\n',
    });
    const workspace = testdir({
      '.clawsmith/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: The repository deploy\n---\n',
    });
    const run = await runCli(['skills', '--workspace', workspace], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('deploy  home  Deploy the service');
    expect(run.stdout).toContain(`(deploy in ${join(workspace, '.clawsmith/skills/deploy/SKILL.md')} is shadowed`);
    expect(run.stderr).toContain(`${join(home, 'skills/broken/SKILL.md')}:3: invalid YAML:`);
    expect(run.stderr).toContain('[skill_invalid]');
  });
});

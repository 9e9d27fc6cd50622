import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { openCliExtensions } from './extensions-composition.js';

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBody\n`;

describe(openCliExtensions, () => {
  it("lists the session workspace's skills for the system prompt; skill_view is loaded, memory_search deferred", async () => {
    const home = testdir({ 'skills/triage/SKILL.md': skill('triage', 'Triage a bug report') });
    const workspace = testdir({ '.agents/skills/style/SKILL.md': skill('style', 'The house style') });
    const notices: string[] = [];
    const extensions = await openCliExtensions({
      homeDir: home,
      workspaceRoot: workspace,
      onNotice: (notice) => notices.push(notice),
    });
    const tools = extensions.sources.flatMap((source) =>
      source.tools.map((tool) => [source.source, tool.name, tool.deferred]),
    );
    expect(tools).toEqual([
      ['extension:skills', 'skill_view', undefined],
      ['extension:memory', 'memory_search', true],
    ]);
    const section = extensions.instructions(workspace);
    expect(section).toContain('- style: The house style');
    expect(section).toContain('- triage: Triage a bug report');
    // Another workspace (a continued session) gets its own list.
    expect(extensions.instructions(testdir())).not.toContain('style');
    expect(notices).toEqual([]);
    extensions.close();
  });

  it('defers skill_view without skills, reports an invalid skill and a malformed plugins.json, and goes on', async () => {
    const home = testdir({ 'plugins.json': '{ not json', 'skills/bad/SKILL.md': 'no front matter' });
    const notices: string[] = [];
    const extensions = await openCliExtensions({
      homeDir: home,
      workspaceRoot: testdir(),
      onNotice: (notice) => notices.push(notice),
    });
    expect(extensions.sources.map((source) => source.tools.map((tool) => tool.deferred))).toEqual([[true], [true]]);
    expect(extensions.instructions(testdir())).toBe('');
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/skills\/bad\/SKILL\.md:1: the file must start with a '---' line .* \[skill_invalid\]$/);
    expect(notices[1]).toMatch(/plugins\.json is not valid JSON .* No plugin is loaded\.$/);
    extensions.close();
  });

  it("keeps skill_view loaded when the sessions' workspaces are not known at startup (clawsmith web)", async () => {
    const extensions = await openCliExtensions({ homeDir: testdir(), onNotice: () => {} });
    expect(extensions.sources[0]?.tools.map((tool) => [tool.name, tool.deferred])).toEqual([['skill_view', undefined]]);
    const workspace = testdir({ '.clawsmith/skills/lint/SKILL.md': skill('lint', 'Lint the repository') });
    expect(extensions.instructions(workspace)).toContain('- lint: Lint the repository');
    extensions.close();
  });
});

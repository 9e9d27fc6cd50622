import { testdir } from '@clawsmith/test-utils';
import { openSync, closeSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { toolResultFromError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { skillMarkdown, toolContext } from '../__fixtures__/tool-context.js';
import { createSkillViewTool, type SkillViewInput } from './skill-view-tool.js';
import { discoverSkills } from './discover-skills.js';

async function view(homeDir: string, workspace: string, input: SkillViewInput): Promise<ToolExecutionResult> {
  const tool = createSkillViewTool({ homeDir });
  try {
    return { version: 1, status: 'success', content: String(await tool.execute(input, toolContext(workspace))) };
  } catch (error) {
    return toolResultFromError(error);
  }
}

function readBytesSoFar(): number {
  const match = /^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(match?.[1]);
}

describe(createSkillViewTool, () => {
  it('lists skills, returns SKILL.md with its files, and one file by relative path', async () => {
    const home = testdir({
      'skills/pdf-forms/SKILL.md': skillMarkdown('pdf-forms', 'Fill in PDF forms', '# Fill\n\nRun scripts/fill.py.\n'),
      'skills/pdf-forms/scripts/fill.py': 'print("filled")\n',
      'skills/pdf-forms/reference.md': '# Reference\n',
    });
    const workspace = testdir({
      '.agents/skills/lint-fix/SKILL.md': skillMarkdown('lint-fix', 'Fix lint errors the repository way'),
    });
    expect((await view(home, workspace, {})).content).toBe(
      [
        'Skills 1-2 of 2 (read one with skill_view and its name):',
        '- lint-fix: Fix lint errors the repository way',
        '- pdf-forms: Fill in PDF forms',
      ].join('\n'),
    );
    expect((await view(home, workspace, { name: 'pdf-forms' })).content).toBe(
      [
        'Skill pdf-forms (home), file SKILL.md (84 bytes)',
        'Other files (read with skill_view and file): reference.md, scripts/fill.py',
        '',
        skillMarkdown('pdf-forms', 'Fill in PDF forms', '# Fill\n\nRun scripts/fill.py.\n'),
      ].join('\n'),
    );
    expect((await view(home, workspace, { name: 'pdf-forms', file: 'scripts/fill.py' })).content).toBe(
      'Skill pdf-forms (home), file scripts/fill.py (16 bytes)\n\nprint("filled")\n',
    );
    expect((await view(home, workspace, { name: 'lint-fix' })).content).toContain('Skill lint-fix (workspace)');
  });

  it('refuses .., absolute paths and links that leave the skill folder, with skill_path_outside', async () => {
    const outside = testdir({ 'secret.txt': 'top secret' });
    const home = testdir({
      'skills/tricky/SKILL.md': skillMarkdown('tricky', 'Tricky'),
      'skills/tricky/leak.txt': { symlink: join(outside, 'secret.txt') },
      'skills/tricky/inner': { symlink: '../tricky' },
      'skills/other/SKILL.md': skillMarkdown('other', 'Other'),
    });
    const workspace = testdir();
    for (const file of [
      '../other/SKILL.md',
      'a/../../other/SKILL.md',
      join(outside, 'secret.txt'),
      '/etc/passwd',
      'leak.txt',
    ]) {
      const result = await view(home, workspace, { name: 'tricky', file });
      expect([file, result.status, result.code]).toEqual([file, 'error', 'skill_path_outside']);
      expect(result.content).not.toContain('top secret');
    }
    // A link that stays inside the skill's folder is fine.
    expect((await view(home, workspace, { name: 'tricky', file: 'inner/SKILL.md' })).status).toBe('success');
    const missing = await view(home, workspace, { name: 'tricky', file: 'nope.md' });
    expect([missing.code, missing.content]).toEqual([
      'skill_file_not_found',
      'The skill has no file "nope.md". Call skill_view with only the name to list its files.',
    ]);
  });

  it('answers an unknown or invalid skill with a code and what to do', async () => {
    const home = testdir({
      'skills/deploy/SKILL.md': skillMarkdown('deploy', 'Deploy'),
      'skills/broken/SKILL.md': '---\nname: broken\n---\n',
    });
    const unknown = await view(home, testdir(), { name: 'deplo' });
    expect([unknown.code, unknown.content]).toEqual([
      'skill_not_found',
      'No skill is named "deplo". Did you mean deploy? Call skill_view without a name to list the skills.',
    ]);
    const broken = await view(home, testdir(), { name: 'broken' });
    expect(broken.code).toBe('skill_invalid');
    expect(broken.content).toContain('skills/broken/SKILL.md:1: the front matter needs a `description` (text).');
  });

  it('bounds a 100 MB SKILL.md: discovery and the first page read only a small head of it', async () => {
    const home = testdir({ 'skills/huge/placeholder': '' });
    const file = join(home, 'skills/huge/SKILL.md');
    const descriptor = openSync(file, 'w');
    writeSync(descriptor, `${skillMarkdown('huge', 'A very large skill')}${'line of instructions\n'.repeat(20_000)}`);
    closeSync(descriptor);
    truncateSync(file, 100 * 1024 * 1024);
    const before = readBytesSoFar();
    expect(discoverSkills({ homeDir: home }).skills.map((skill) => skill.name)).toEqual(['huge']);
    const first = await view(home, testdir(), { name: 'huge' });
    const read = readBytesSoFar() - before;
    expect(read).toBeLessThan(1024 * 1024);
    expect(first.status).toBe('success');
    expect(first.content.length).toBeLessThan(101_000);
    expect(first.content).toMatch(
      /\[bytes 0-100000 of 104857600 shown \(at most 100000 per call\); read on with skill_view name huge, file SKILL.md, offset 100000\]$/,
    );
    const next = await view(home, testdir(), { name: 'huge', offset: 100_000 });
    expect(next.content).toContain('line of instructions');
  });
});

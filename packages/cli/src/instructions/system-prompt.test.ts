import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, defaultSystemPrompt } from './system-prompt.js';

const toolNames = ['read_file', 'edit_file', 'run_command', 'search_tools', 'read_artifact', 'todo_write'];
const date = new Date('2026-12-03T10:00:00Z');

describe('defaultSystemPrompt', () => {
  it('says what clawsmith is, the workspace root, the platform, the date, undo, and what the tools are for', () => {
    const prompt = defaultSystemPrompt({ workspaceRoot: '/work/project', toolNames, platform: 'linux x64', date });
    expect(prompt).toContain('You are clawsmith');
    expect(prompt).toContain('Workspace root: /work/project');
    expect(prompt).toContain('Platform: linux x64; date: 2026-12-03');
    expect(prompt).toContain('clawsmith undo');
    expect(prompt).toContain('read_artifact');
    expect(prompt).toMatch(/run_command .*exit code/);
    expect(prompt).toContain('start_command');
    expect(Buffer.byteLength(prompt)).toBeLessThan(2_000);
  });

  it('leaves out the lines of tools that are not there', () => {
    const prompt = defaultSystemPrompt({ workspaceRoot: '/w', toolNames: ['read_file'], date });
    expect(prompt).not.toContain('run_command');
    expect(prompt).not.toContain('search_tools');
  });
});

describe('buildSystemPrompt', () => {
  it("adds the workspace's AGENTS.md and CLAWSMITH.md, in that order", () => {
    const workspace = testdir({ 'AGENTS.md': 'Use tabs.\n', 'CLAWSMITH.md': 'Run npm test.\n' });
    const prompt = buildSystemPrompt({ workspaceRoot: workspace, toolNames, date });
    expect(prompt).toMatch(
      /Project instructions from AGENTS\.md:\n\nUse tabs\.[\s\S]*from CLAWSMITH\.md:\n\nRun npm test\./,
    );
  });

  it('cuts an instruction file at 32 KiB on a line end and says so', () => {
    const line = `${'x'.repeat(99)}\n`;
    const workspace = testdir({ 'AGENTS.md': `${line.repeat(400)}THE END\n` });
    const prompt = buildSystemPrompt({ workspaceRoot: workspace, toolNames, date });
    expect(prompt).not.toContain('THE END');
    expect(prompt).toContain('AGENTS.md is longer than 32 KiB; the rest was cut');
    const kept = prompt.split('Project instructions from AGENTS.md:\n\n')[1]!.split('\n\n[')[0]!;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(32 * 1024);
    expect(kept.endsWith('x')).toBe(true);
  });

  it('replaces the default with --system-prompt (text or @file) and appends --append-system-prompt', () => {
    const workspace = testdir({ 'AGENTS.md': 'Use tabs.' });
    const file = join(testdir(), 'prompt.txt');
    writeFileSync(file, 'From a file.');
    const replaced = buildSystemPrompt(
      { workspaceRoot: workspace, toolNames, date },
      { systemPrompt: `@${file}`, appendSystemPrompt: 'Be brief.' },
    );
    expect(replaced).toBe('From a file.\n\nProject instructions from AGENTS.md:\n\nUse tabs.\n\nBe brief.');
    expect(buildSystemPrompt({ workspaceRoot: workspace, toolNames }, { systemPrompt: 'Plain.' })).toMatch(/^Plain\./);
    expect(() =>
      buildSystemPrompt({ workspaceRoot: workspace, toolNames }, { systemPrompt: '@/no/such/file' }),
    ).toThrow(expect.objectContaining({ code: 'system_prompt_unreadable' }));
  });
});

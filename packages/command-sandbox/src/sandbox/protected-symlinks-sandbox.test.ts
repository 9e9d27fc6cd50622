// A cloned repository can commit symbolic links at protected paths. A mount cannot cover a link's
// own location and the command could swap it. With capture the command runs with where the link
// leads read-only, and a change of the link itself is refused when applied; without capture, or
// while the link dangles, the command is refused with its own code (bubblewrap never fails half-way).
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';

function workspaceWith(link: string, target: (outside: string) => string, extra: Record<string, string> = {}) {
  const workspace = testdir({ 'src/a.ts': 'a', ...extra });
  const outside = testdir({ 'hooks/pre-commit': 'outside' });
  mkdirSync(join(workspace, link, '..'), { recursive: true });
  symlinkSync(target(outside), join(workspace, link));
  return { workspace, outside };
}

describe('protected paths that are symbolic links', () => {
  it.each<[string, (outside: string) => string, 'auto' | 'off']>([
    ['.clawsmith', (outside) => outside, 'off'],
    ['vendor/lib/.vscode', () => '/nonexistent/dangling', 'auto'],
    ['.vscode', () => 'missing-settings', 'auto'],
  ])(
    'refuses a command while %s is a link (capture %s), with protected_path_symlink',
    async (link, target, capture) => {
      const { workspace, outside } = workspaceWith(link, target);
      await expect(
        runCommand({ capture }, { workspaceRoot: workspace, command: `echo evil > ${link}/x; echo ok > src/a.ts` }),
      ).rejects.toMatchObject({ code: 'protected_path_symlink', message: expect.stringContaining(link) });
      expect(readlinkSync(join(workspace, link))).toBe(target(outside));
      expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('a');
    },
  );

  it('runs a command while .clawsmith links outside the workspace, with the target read-only', async () => {
    const { workspace, outside } = workspaceWith('.clawsmith', (folder) => folder);
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: 'echo evil > .clawsmith/x || echo TARGET-REFUSED; echo ok > src/a.ts; echo done',
      },
    );
    expect(result.output).toContain('TARGET-REFUSED');
    expect(result.output).toContain('done');
    expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('ok\n');
    expect(readdirSync(outside)).toEqual(['hooks']);
    expect(readlinkSync(join(workspace, '.clawsmith'))).toBe(outside);
  });

  it('runs a command while .clawsmith links inside the workspace; swapping the link is refused when applied', async () => {
    const workspace = testdir({ 'src/a.ts': 'a', 'settings/mcp.json': '{}' });
    symlinkSync('settings', join(workspace, '.clawsmith'));
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: [
          'echo evil > settings/mcp.json || echo TARGET-REFUSED',
          'rm .clawsmith && mkdir .clawsmith && echo planted > .clawsmith/mcp.json && echo SWAPPED-IN-SANDBOX',
          'echo ok > src/a.ts',
        ].join('; '),
      },
    );
    expect(result.output).toContain('TARGET-REFUSED');
    expect(result.output).toContain('SWAPPED-IN-SANDBOX');
    expect(readFileSync(join(workspace, 'settings/mcp.json'), 'utf8')).toBe('{}');
    expect(readlinkSync(join(workspace, '.clawsmith'))).toBe('settings');
    expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('ok\n');
    expect(result.files).toMatchObject({
      captured: true,
      changes: { refused: expect.arrayContaining(['.clawsmith/mcp.json']) },
    });
  });

  it.each([
    ['.git/hooks', (outside: string) => join(outside, 'hooks')],
    ['.git/config', (outside: string) => join(outside, 'missing-config')],
  ])('runs a command while %s is a link inside a real .git, which stays read-only whole', async (link, target) => {
    const { workspace, outside } = workspaceWith(link, target, { '.git/HEAD': 'ref: refs/heads/main\n' });
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: `echo evil > ${link}/x; echo evil > ${link}; rm -f ${link}; echo ok > src/a.ts`,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(workspace, 'src/a.ts'), 'utf8')).toBe('ok\n');
    expect(readlinkSync(join(workspace, link))).toBe(target(outside));
    expect(readdirSync(outside).sort()).toEqual(['hooks']);
    expect(readdirSync(join(outside, 'hooks'))).toEqual(['pre-commit']);
  });

  it('runs commands again once the link is replaced by a real folder', async () => {
    const { workspace } = workspaceWith('.clawsmith', (outside) => outside);
    await expect(runCommand({ capture: 'off' }, { workspaceRoot: workspace, command: 'true' })).rejects.toMatchObject({
      code: 'protected_path_symlink',
    });
    rmSync(join(workspace, '.clawsmith'));
    mkdirSync(join(workspace, '.clawsmith'));
    writeFileSync(join(workspace, '.clawsmith/permissions.json'), '{}');
    const result = await runCommand({}, { workspaceRoot: workspace, command: 'echo evil > .clawsmith/x; echo done' });
    expect(result.output).toContain('done');
    expect(result.output).toMatch(/Read-only file system/);
  });
});

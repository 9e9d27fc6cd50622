// Hidden folders as the real sandbox applies them: a clawsmith home wherever it lives (not only
// under the home folders), and hiddenPaths inside the workspace.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCommand } from '../index.js';

const packageRoot = new URL('../..', import.meta.url).pathname;
// The sandbox always hides these; a home there would be hidden without the option under test.
const alwaysHidden = /^\/(tmp|var\/tmp|run|dev|proc)(\/|$)/.test(packageRoot);

/** A home outside /tmp and the home folders (both are hidden anyway), so only the option can hide it. */
function homeOutsideDefaultHiding(): string {
  mkdirSync(join(packageRoot, 'test-results'), { recursive: true });
  const home = mkdtempSync(join(packageRoot, 'test-results', 'home-'));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, 'clawsmith.db'), 'session A transcript');
  return home;
}

describe('hidden folders in the sandbox', () => {
  it.skipIf(alwaysHidden)(
    'hides a home at any location given as additionalHiddenPaths: not listed, not read, not written',
    async () => {
      const home = homeOutsideDefaultHiding();
      const workspace = testdir({ 'a.txt': 'a' });
      const command = `ls -A ${home}; cat ${home}/clawsmith.db; grep -r transcript ${home}; echo forged > ${home}/journal; echo done`;
      // hiddenPaths [] leaves out the home folders, in case the repository lives under one.
      const visible = await runCommand(
        { hiddenPaths: [] },
        { workspaceRoot: workspace, command: `cat ${home}/clawsmith.db` },
      );
      expect(visible.output).toContain('session A transcript');

      const hidden = await runCommand(
        { hiddenPaths: [], additionalHiddenPaths: [home] },
        { workspaceRoot: workspace, command },
      );
      expect(hidden.output).not.toContain('transcript');
      expect(hidden.output).not.toContain('clawsmith.db\n');
      expect(hidden.output).toContain('done');
      expect(readFileSync(join(home, 'clawsmith.db'), 'utf8')).toBe('session A transcript');
      expect(() => readFileSync(join(home, 'journal'))).toThrow();
    },
  );

  it('hides a hiddenPaths folder inside the workspace behind an empty folder', async () => {
    const workspace = testdir({ 'private/key.txt': 'secret', 'src/a.ts': 'a' });
    const result = await runCommand(
      { hiddenPaths: [join(workspace, 'private')] },
      { workspaceRoot: workspace, command: 'ls -A private; cat private/key.txt; cat src/a.ts; echo' },
    );
    expect(result.output).not.toContain('secret');
    expect(result.output).not.toContain('key.txt\n');
    expect(result.output).toContain('a');
    expect(readFileSync(join(workspace, 'private/key.txt'), 'utf8')).toBe('secret');
  });
});

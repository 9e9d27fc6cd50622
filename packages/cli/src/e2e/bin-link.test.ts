import { execFileSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
};

/** The environment without npm's own variables (a test run under `npm test` inherits them). */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

describe('the clawsmith bin', () => {
  it('is a committed launcher, shipped, executable, that runs the built command', () => {
    const launcher = join(PACKAGE_ROOT, manifest.bin.clawsmith!);
    expect(manifest.bin.clawsmith).toBe('bin/clawsmith.js');
    expect(manifest.files).toContain('bin');
    accessSync(launcher, constants.X_OK);
    expect(readFileSync(launcher, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const version = execFileSync(process.execPath, [launcher, '--version'], { encoding: 'utf8' });
    expect(version.trim()).toBe(manifest.version);
  });

  it('is linked by npm at install time, before any build, and says so when run unbuilt', () => {
    // A copy of the package as a fresh clone has it: the manifest and the committed files, no dist/.
    const packageCopy = testdir();
    mkdirSync(join(packageCopy, 'bin'));
    copyFileSync(join(PACKAGE_ROOT, manifest.bin.clawsmith!), join(packageCopy, manifest.bin.clawsmith!));
    writeFileSync(
      join(packageCopy, 'package.json'),
      JSON.stringify({ name: manifest.name, version: manifest.version, type: 'module', bin: manifest.bin }),
    );
    const project = testdir({ 'package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }) });
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', packageCopy], {
      cwd: project,
      env: cleanEnvironment(),
      stdio: 'pipe',
    });
    const link = join(project, 'node_modules', '.bin', 'clawsmith');
    expect(readlinkSync(link)).toBe('../@clawsmith/cli/bin/clawsmith.js');
    let failure: { status?: number; stderr?: string } = {};
    try {
      execFileSync(link, ['--version'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure.status).toBe(1);
    expect(String(failure.stderr)).toContain('[cli_not_built]');
    expect(String(failure.stderr)).toContain('npm run build');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFixture, testdir } from './index.js';

const program = join(import.meta.dirname, '__fixtures__/greeting-program.ts');

describe('bundledFixture', () => {
  it('bundles a TypeScript program once per process into one module that plain node runs', async () => {
    const bundle = await bundledFixture(program);
    expect(await bundledFixture(program)).toBe(bundle);
    expect(bundle).toMatch(
      /\/tools\/test-utils\/node_modules\/\.cache\/clawsmith-fixtures\/greeting-program-[0-9a-f]{16}\.mjs$/,
    );
    expect(statSync(bundle).mode & 0o777).toBe(0o600);
    expect(execFileSync(process.execPath, [bundle, 'world'], { encoding: 'utf8' })).toBe('hello world function\n');
  });

  it('leaves third-party packages to Node and bundles the sources', async () => {
    const text = readFileSync(await bundledFixture(program), 'utf8');
    expect(text).toMatch(/from "zod"/);
    expect(text).toContain('// src/__fixtures__/greeting.ts');
  });

  it('says what is wrong when the fixture is in no package', async () => {
    const root = testdir({ 'alone.ts': 'process.stdout.write("alone\\n");\n' });
    await expect(bundledFixture(join(root, 'alone.ts'))).rejects.toThrow(
      /alone\.ts is in no package \(no package\.json above it\)/,
    );
  });

  it('reports a fixture that does not compile', async () => {
    const root = testdir({ 'package.json': '{}', 'broken.ts': 'const = ;\n' });
    await expect(bundledFixture(join(root, 'broken.ts'))).rejects.toThrow(/broken\.ts/);
    expect(existsSync(join(root, 'node_modules/.cache'))).toBe(false);
  });
});

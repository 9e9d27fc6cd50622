import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, type ConsumerProject } from '../src/consumer-project.js';
import { packPackages, publishedPackages, type PackageManifest } from '../src/pack-packages.js';

const repositoryRoot = resolve(import.meta.dirname, '../../..');
const tsc = join(repositoryRoot, 'node_modules/typescript/bin/tsc');
const packages = publishedPackages(repositoryRoot);
let scratch: string;
let consumer: ConsumerProject;

function run(command: string, args: readonly string[], timeoutMs = 180_000): string {
  const result = spawnSync(command, args, { cwd: consumer.root, encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'clawsmith-packed-consumer-'));
  const tarballs = packPackages(repositoryRoot, packages, scratch);
  consumer = createConsumerProject(repositoryRoot, packages, tarballs, scratch);
  cpSync(join(import.meta.dirname, '../programs'), join(consumer.root, 'programs'), { recursive: true });
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('packed packages in a project outside the repository', () => {
  it('ship dist, the sources their maps name, LICENSE and README, and no in-repository condition', () => {
    expect(packages.length).toBeGreaterThanOrEqual(10);
    for (const pkg of packages) {
      const installed = join(consumer.root, 'node_modules', pkg.name);
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackageManifest;
      expect(JSON.stringify(manifest.exports), pkg.name).not.toContain('@clawsmith/source');
      expect(manifest.exports?.['.'], pkg.name).toMatchObject({
        types: './dist/index.d.ts',
        default: './dist/index.js',
      });
      expect(manifest.devDependencies, pkg.name).toBeUndefined();
      for (const file of ['LICENSE', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'src/index.ts'])
        expect(existsSync(join(installed, file)), `${pkg.name} ships ${file}`).toBe(true);
      const map = JSON.parse(readFileSync(join(installed, 'dist/index.js.map'), 'utf8')) as { sources: string[] };
      for (const source of map.sources) expect(existsSync(join(installed, 'dist', source)), source).toBe(true);
      const shipped = execFileSync('find', [installed, '-name', '*.test.ts', '-o', '-name', '.tsbuildinfo'], {
        encoding: 'utf8',
      });
      expect(shipped, `${pkg.name} ships no tests or build info`).toBe('');
    }
  });

  it('type-check every README example with moduleResolution node16 and skipLibCheck false', () => {
    expect(consumer.examples).toEqual(
      expect.arrayContaining(['workspace-fs/edit-a-file.ts', 'command-sandbox/run-a-command.ts', 'core/agent-turn.ts']),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.node16.json']);
  });

  it('type-check every README example with moduleResolution bundler and skipLibCheck false', () => {
    run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json']);
  });

  it('run every README example as an ES module from the installed tarballs', () => {
    const compiled = join(consumer.root, 'dist');
    expect(readdirSync(compiled).length).toBeGreaterThan(0);
    for (const example of consumer.examples) {
      const output = run(process.execPath, [join('dist', example.replace(/\.ts$/, '.js'))]);
      expect(output.trim().length, `${example} prints what it did`).toBeGreaterThan(0);
    }
  });

  it('load every package with require() from CommonJS', () => {
    const output = run(process.execPath, ['programs/require-every-package.cjs', ...packages.map((pkg) => pkg.name)]);
    for (const pkg of packages) expect(output).toMatch(new RegExp(`^${pkg.name}: [1-9]\\d* exports$`, 'm'));
  });

  it('give a zod 3 consumer the unsupported_schema error naming zod ^4', () => {
    const output = run(process.execPath, ['programs/zod3-consumer.mjs']);
    expect(output).toContain('unsupported_schema: Tool legacy_tool: inputSchema is a zod 3 schema');
    expect(output).toContain('zod ^4.0.0');
  });
});

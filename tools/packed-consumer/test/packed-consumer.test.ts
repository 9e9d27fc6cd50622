import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { exampleModelScript, runWithScriptedModel } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, unpackTarballs, type ConsumerProject } from '../src/consumer-project.js';
import { talksToModel, usesPrivateTestUtilities } from '../src/example-imports.js';
import { installedPath } from '../src/install-packages.js';
import { createIsolatedProject, type IsolatedProject } from '../src/isolated-project.js';
import { packPackages, publishedPackages, type PackageManifest } from '../src/pack-packages.js';

const repositoryRoot = resolve(import.meta.dirname, '../../..');
const programs = join(import.meta.dirname, '../programs');
const packages = publishedPackages(repositoryRoot);
// Both type-checks with library checking: about 40 s of processor time, minutes on a loaded machine.
const TYPE_CHECK_TIMEOUT_MS = 420_000;
let scratch: string;
let unpacked: Map<string, string>;
let consumer: ConsumerProject;
let isolated: IsolatedProject[] | undefined;
let typeChecks: Record<string, string[] | undefined> | undefined;

/** The environment of every child: no NODE_PATH, so modules resolve only from the folders under test. */
function childEnv(): NodeJS.ProcessEnv {
  const { NODE_PATH: _ignored, ...env } = process.env;
  return env;
}

function spawn(command: string, args: readonly string[], cwd: string, timeoutMs: number): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: childEnv() });
}

function run(command: string, args: readonly string[], cwd = consumer.root, timeoutMs = 180_000): string {
  const result = spawn(command, args, cwd, timeoutMs);
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} in ${cwd} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

/**
 * `import()` and `require()` of each package by a program copied into its folder (so it resolves
 * from there), all in one child process (see programs/load-package.mjs).
 */
function loadPackages(installs: readonly { readonly root: string; readonly name: string }[]): SpawnSyncReturns<string> {
  for (const { root } of installs) cpSync(programs, join(root, 'programs'), { recursive: true });
  const args = installs.flatMap(({ root, name }) => [root, name]);
  return spawn(process.execPath, [join(programs, 'load-package.mjs'), ...args], scratch, 180_000);
}

/**
 * The errors of the shared project's type-check with `tsconfig` (`tsconfig.node16.json` or
 * `tsconfig.bundler.json`), and those tsc could not place in either. Both checks run in one
 * process, on the first call (see programs/type-check-projects.mjs): they parse the same
 * declaration files, which one process reads once.
 */
function typeCheckErrors(tsconfig: string): { errors: string[] | undefined; unattributed: string[] | undefined } {
  typeChecks ??= JSON.parse(
    run(
      process.execPath,
      [
        join(programs, 'type-check-projects.mjs'),
        join(repositoryRoot, 'node_modules/typescript'),
        'tsconfig.node16.json',
        'tsconfig.bundler.json',
      ],
      consumer.root,
      TYPE_CHECK_TIMEOUT_MS,
    ),
  ) as Record<string, string[] | undefined>;
  return { errors: typeChecks[tsconfig], unattributed: typeChecks.unattributed };
}

/**
 * One folder per published package with only that package and what it declares (made after the
 * shared node16 type-check, whose compiled examples each folder reuses).
 */
function isolatedProjects(): IsolatedProject[] {
  isolated ??= packages.map((pkg) => {
    const folder = basename(pkg.folder);
    const examples = join(pkg.folder, 'examples');
    const sources = existsSync(examples)
      ? readdirSync(examples)
          .filter((file) => file.endsWith('.ts'))
          .map((file) => join(examples, file))
          .filter((file) => !usesPrivateTestUtilities(readFileSync(file, 'utf8')))
      : [];
    return createIsolatedProject({
      packageName: pkg.name,
      root: join(scratch, 'isolated', folder),
      unpacked,
      repositoryRoot,
      exampleSources: sources.filter((file) => !talksToModel(file)),
      compiledExamples: join(consumer.root, 'dist', folder),
      modelExampleSources: sources.filter(talksToModel),
      // An example's framework may need another major of a package than the repository root holds
      // (Mastra's AI SDK 5 provider): the package's own node_modules first, as npm would have it.
      exampleLinkFrom: [pkg.folder, repositoryRoot],
    });
  });
  return isolated;
}

function isolatedProject(name: string): IsolatedProject {
  const project = isolatedProjects().find((candidate) => candidate.packageName === name);
  if (!project) throw new Error(`no isolated project for ${name}`);
  return project;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'clawsmith-packed-consumer-'));
  const tarballs = packPackages(repositoryRoot, packages, scratch);
  unpacked = unpackTarballs(packages, tarballs, scratch);
  consumer = createConsumerProject(repositoryRoot, packages, unpacked, scratch);
  cpSync(programs, join(consumer.root, 'programs'), { recursive: true });
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

  it(
    'type-check every README example with moduleResolution node16 and skipLibCheck false',
    { timeout: TYPE_CHECK_TIMEOUT_MS + 60_000 },
    () => {
      expect(consumer.examples).toEqual(
        expect.arrayContaining([
          'workspace-fs/edit-a-file.ts',
          'command-sandbox/run-a-command.ts',
          'core/agent-turn.ts',
        ]),
      );
      expect(typeCheckErrors('tsconfig.node16.json')).toEqual({ errors: [], unattributed: undefined });
    },
  );

  it(
    'type-check every README example with moduleResolution bundler and skipLibCheck false',
    { timeout: TYPE_CHECK_TIMEOUT_MS + 60_000 },
    () => {
      expect(typeCheckErrors('tsconfig.bundler.json')).toEqual({ errors: [], unattributed: undefined });
    },
  );

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

describe('each packed package installed alone, with only what it declares', () => {
  it('holds only the package, the clawsmith packages it declares and their declared third-party packages', () => {
    const clawsmithIn = (project: IsolatedProject) => readdirSync(join(project.root, 'node_modules/@clawsmith')).sort();
    expect(clawsmithIn(isolatedProject('@clawsmith/tool-protocol'))).toEqual(['tool-protocol']);
    expect(clawsmithIn(isolatedProject('@clawsmith/command-sandbox'))).toEqual([
      'command-sandbox',
      'platform',
      'tool-protocol',
    ]);
    expect(clawsmithIn(isolatedProject('@clawsmith/checkpoints'))).toEqual([
      'checkpoints',
      'platform',
      'tool-protocol',
    ]);
    expect([...isolatedProject('@clawsmith/checkpoints').installed.linked].sort()).toEqual([
      'better-sqlite3',
      'kysely',
      'pg',
      'zod',
    ]);
    expect(clawsmithIn(isolatedProject('@clawsmith/core'))).toEqual([
      'artifacts',
      'checkpoints',
      'command-sandbox',
      'core',
      'deferred-tools',
      'platform',
      'providers',
      'search-index',
      'session-protocol',
      'tool-host',
      'tool-protocol',
      'web-fetch',
      'workspace-fs',
    ]);
  });

  it('import() and require() each package from its own folder', () => {
    const projects = isolatedProjects();
    const result = loadPackages(projects.map((project) => ({ root: project.root, name: project.packageName })));
    for (const project of projects)
      expect(result.stdout + result.stderr, project.packageName).toMatch(
        new RegExp(`^${project.packageName}: import [1-9]\\d* exports, require [1-9]\\d* exports$`, 'm'),
      );
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('run every README example from its package’s own folder', () => {
    const runs = isolatedProjects().flatMap((project) => project.examples.map((example) => ({ project, example })));
    expect(runs.map(({ example }) => example)).toEqual(
      expect.arrayContaining(['dist/edit-a-file.js', 'dist/run-a-command.js', 'dist/agent-turn.js']),
    );
    expect(runs.length).toBe(consumer.examples.length);
    for (const { project, example } of runs) {
      const output = run(process.execPath, [example], project.exampleRoot);
      expect(output.trim().length, `${project.packageName} ${example} prints what it did`).toBeGreaterThan(0);
    }
  });

  it('run every framework adapter’s README example with its framework, against a scripted model on 127.0.0.1', async () => {
    const runs = isolatedProjects().flatMap((project) => project.modelExamples.map((entry) => ({ project, ...entry })));
    expect(runs.map(({ project }) => project.packageName).sort()).toEqual([
      '@clawsmith/adapter-ai-sdk',
      '@clawsmith/adapter-langchain',
      '@clawsmith/adapter-mastra',
      '@clawsmith/adapter-openai-agents',
    ]);
    const { FORCE_COLOR: _forced, ...env } = childEnv();
    for (const { project, example, source } of runs) {
      const framework = readdirSync(join(project.exampleRoot, 'node_modules'));
      expect(framework.length, `${project.packageName}'s example folder holds its framework`).toBeGreaterThan(0);
      const output = await runWithScriptedModel([example], {
        cwd: project.exampleRoot,
        steps: exampleModelScript(source) ?? [],
        env: { ...env, NO_COLOR: '1' },
        timeoutMs: 180_000,
      });
      // Each example prints the fixed line, then the original line again after undo from code.
      const fixed = output.indexOf('export const add = (a, b) => a + b;');
      expect(fixed, `${project.packageName} ${example} fixed the file:\n${output}`).toBeGreaterThan(-1);
      expect(
        output.lastIndexOf('export const add = (a, b) => a - b;'),
        `${project.packageName} undid it`,
      ).toBeGreaterThan(fixed);
    }
  });

  it('run the packed `clawsmith` from a project outside the repository: npx, a scripted turn that writes, searches and runs a sandboxed command, and its checkpoints', () => {
    const project = isolatedProject('@clawsmith/cli');
    const cli = installedPath(project.root, '@clawsmith/cli');
    const manifest = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8')) as PackageManifest & {
      bin: Record<string, string>;
    };
    // The link npm makes for the package's bin when it installs it.
    mkdirSync(join(project.root, 'node_modules/.bin'), { recursive: true });
    const bin = join(project.root, 'node_modules/.bin/clawsmith');
    symlinkSync(join('..', '@clawsmith/cli', manifest.bin.clawsmith!), bin);
    expect(run('npx', ['--offline', '--no', '--', 'clawsmith', '--version'], project.root).trim()).toBe(
      manifest.version,
    );

    const home = join(scratch, 'cli-run', 'home');
    const workspace = join(scratch, 'cli-run', 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'notes.txt'), 'first line\n');
    const script = join(scratch, 'cli-run', 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { toolCalls: [{ name: 'write_file', arguments: { path: 'by-tool.txt', content: 'written\n' } }] },
          { toolCalls: [{ name: 'search_files', arguments: { query: 'first \\w+', regex: true } }] },
          { toolCalls: [{ name: 'run_command', arguments: { command: 'echo by-command > by-command.txt' } }] },
          { text: 'done' },
        ],
      }),
    );
    const events = run(
      process.execPath,
      [
        bin,
        'run',
        '--json',
        '--home',
        home,
        '--workspace',
        workspace,
        '--permission-mode',
        'full-auto',
        '--script',
        script,
        'go',
      ],
      project.root,
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; sessionId: string; toolName?: string; status?: string });
    const completed = events.filter((event) => event.type === 'tool.completed');
    expect(completed.map(({ toolName, status }) => `${toolName} ${status}`)).toEqual([
      'write_file success',
      'search_files success',
      'run_command success',
    ]);
    expect(readFileSync(join(workspace, 'by-tool.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(join(workspace, 'by-command.txt'), 'utf8')).toBe('by-command\n');
    const checkpoints = run(
      process.execPath,
      [bin, 'checkpoints', '--home', home, '--session', events[0]!.sessionId],
      project.root,
    );
    expect(checkpoints).toContain('by-tool.txt');
    expect(checkpoints).toContain('by-command.txt');
  });

  it('fail a package that imports what it does not declare, though the shared project loads it', () => {
    // A throwaway checkpoints whose code imports micromatch, which checkpoints does not declare
    // but core and workspace-fs do.
    const broken = join(scratch, 'broken', 'checkpoints');
    cpSync(unpacked.get('@clawsmith/checkpoints') as string, broken, { recursive: true });
    const entry = join(broken, 'dist/index.js');
    writeFileSync(entry, `import 'micromatch';\n${readFileSync(entry, 'utf8')}`);
    const withBroken = new Map(unpacked).set('@clawsmith/checkpoints', broken);

    const shared = createConsumerProject(repositoryRoot, packages, withBroken, join(scratch, 'broken'));
    const together = loadPackages([{ root: shared.root, name: '@clawsmith/checkpoints' }]);
    expect(together.stdout, 'every package together hides the missing declaration').toMatch(
      /^@clawsmith\/checkpoints: import [1-9]\d* exports/m,
    );

    const alone = createIsolatedProject({
      packageName: '@clawsmith/checkpoints',
      root: join(scratch, 'broken', 'isolated'),
      unpacked: withBroken,
      repositoryRoot,
    });
    // Loaded after a package that declares micromatch, in the same process: the module cache
    // must not hide what the folder lacks.
    const result = loadPackages([
      { root: isolatedProject('@clawsmith/core').root, name: '@clawsmith/core' },
      { root: alone.root, name: '@clawsmith/checkpoints' },
    ]);
    expect(result.stdout).toMatch(/^@clawsmith\/core: import [1-9]\d* exports, require [1-9]\d* exports$/m);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      "undeclared_dependency: @clawsmith/checkpoints imports 'micromatch', which is not installed beside it",
    );
    expect(result.stdout).toContain("Add 'micromatch' to @clawsmith/checkpoints's dependencies");
  });
});

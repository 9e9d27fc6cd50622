import { testdir } from '@clawsmith/test-utils';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveToolSecurity, toolResultFromError } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { pluginTree } from '../__fixtures__/plugin-tree.js';
import { toolContext } from '../__fixtures__/tool-context.js';
import { loadPlugins } from './load-plugins.js';
import { writePluginConfiguration } from './plugin-config.js';
import { trustPlugin, untrustPlugin } from './trust-plugin.js';

function setup(name = 'greeter') {
  const scratch = testdir();
  const marker = join(scratch, 'marker');
  const plugin = testdir(pluginTree(name, marker));
  const home = testdir();
  return { marker, plugin, home };
}

describe(loadPlugins, () => {
  it('loads a trusted plugin: deferred tools unless always loaded, validated input, tool errors thrown for core', async () => {
    const { marker, plugin, home } = setup();
    const trusted = trustPlugin({ homeDir: home, target: plugin, alwaysLoaded: ['greeter_greet'] });
    expect(trusted.entry.integrity).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(existsSync(marker)).toBe(false);
    const loaded = await loadPlugins({ homeDir: home });
    expect(loaded.plugins.map((status) => [status.name, status.state, status.tools])).toEqual([
      ['greeter', 'loaded', ['greeter_greet', 'greeter_fail']],
    ]);
    expect(loaded.sources.map((source) => source.source)).toEqual([`plugin:greeter (${plugin})`]);
    const [greet, fail] = loaded.sources[0]?.tools ?? [];
    expect([greet?.deferred, fail?.deferred]).toEqual([undefined, true]);
    expect(greet?.inputSchema.safeParse({}).success).toBe(false);
    expect(greet?.inputSchema.safeParse({ who: 7 }).success).toBe(false);
    expect(greet?.summarize({ who: 'Ada' })).toBe('greet Ada');
    expect(await greet?.execute({ who: 'Ada' }, toolContext(home))).toBe('Hello, Ada!');
    const failure = await fail?.execute({}, toolContext(home)).catch((error: unknown) => toolResultFromError(error));
    expect(failure).toMatchObject({ status: 'error', code: 'tool_failed', content: 'the plugin tool broke' });
    expect(readFileSync(marker, 'utf8')).toBe('imported\n');
  });

  it('never runs an untrusted or changed plugin: no module code runs', async () => {
    const { marker, plugin, home } = setup('changing');
    writePluginConfiguration(home, { version: 1, plugins: { changing: { path: plugin } } });
    const untrusted = await loadPlugins({ homeDir: home });
    expect(untrusted.plugins.map((status) => [status.state, status.problem?.code])).toEqual([
      ['untrusted', 'plugin_untrusted'],
    ]);
    trustPlugin({ homeDir: home, target: 'changing' });
    // A change to a file the module imports is a change too.
    writeFileSync(join(plugin, 'helper.mjs'), "export function greeting() { return 'pwned'; }\n");
    const notices: string[] = [];
    const changed = await loadPlugins({ homeDir: home, onNotice: (notice) => notices.push(notice) });
    expect(changed.sources).toEqual([]);
    expect(changed.plugins.map((status) => [status.state, status.problem?.code])).toEqual([
      ['changed', 'plugin_changed'],
    ]);
    expect(notices).toEqual([
      `Plugin changing changed since it was trusted (${plugin}); it is not loaded. Review the change and run: clawsmith plugins trust changing`,
    ]);
    expect(untrustPlugin({ homeDir: home, name: 'changing' })).toBe(true);
    expect((await loadPlugins({ homeDir: home })).plugins[0]?.state).toBe('untrusted');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a manifest naming a module outside its folder, before any code runs', async () => {
    const scratch = testdir({ 'evil.mjs': '' });
    const marker = join(scratch, 'marker');
    writeFileSync(
      join(scratch, 'evil.mjs'),
      `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport const tools = [];\n`,
    );
    const home = testdir();
    for (const module of ['../evil.mjs', join(scratch, 'evil.mjs'), './linked.mjs']) {
      const plugin = testdir({
        'clawsmith-plugin.json': JSON.stringify({ name: 'escaper', tools: [module] }),
        'linked.mjs': { symlink: join(scratch, 'evil.mjs') },
      });
      expect(() => trustPlugin({ homeDir: home, target: plugin })).toThrow(
        expect.objectContaining({ code: 'plugin_module_outside' }),
      );
      writePluginConfiguration(home, { version: 1, plugins: { escaper: { path: plugin, integrity: 'sha256-x' } } });
      const loaded = await loadPlugins({ homeDir: home });
      expect([module, loaded.plugins[0]?.state, loaded.plugins[0]?.problem?.code]).toEqual([
        module,
        'invalid',
        'plugin_module_outside',
      ]);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('reports and skips a plugin that throws while loading; the others still load', async () => {
    const scratch = testdir();
    const broken = testdir(
      pluginTree('broken', join(scratch, 'm1'), { module: "throw new Error('cannot start: missing key');\n" }),
    );
    const bad = testdir(
      pluginTree('bad-exports', join(scratch, 'm2'), { module: 'export const tools = [{ name: 1 }];\n' }),
    );
    const good = testdir(pluginTree('good', join(scratch, 'm3')));
    const home = testdir();
    for (const target of [broken, bad, good]) trustPlugin({ homeDir: home, target });
    const loaded = await loadPlugins({ homeDir: home });
    expect(loaded.plugins.map((status) => [status.name, status.state, status.problem?.message])).toEqual([
      [
        'broken',
        'failed',
        `Plugin broken: loading ${join(broken, 'tools.mjs')} threw: cannot start: missing key. The plugin is skipped.`,
      ],
      [
        'bad-exports',
        'failed',
        'Plugin bad-exports is skipped: a tool has no valid name (letters, digits, _ and -, at most 64): "1".',
      ],
      ['good', 'loaded', undefined],
    ]);
    expect(loaded.sources.map((source) => source.tools.map((tool) => tool.name))).toEqual([
      ['good_greet', 'good_fail'],
    ]);
  });

  it("keeps the declared risk and capabilities for core's floors: the floor wins", async () => {
    const scratch = testdir();
    const module = `export const tools = [
  { name: 'sneaky', description: 'Claims read, runs processes.', risk: 'read', capabilities: ['process.execute'],
    concurrencySafe: true, inputJsonSchema: { type: 'object' }, async execute() { return 'ran'; } },
  { name: 'vague', description: 'Declares nothing.', risk: 'read', concurrencySafe: true,
    inputJsonSchema: { type: 'object' }, async execute() { return 'ran'; } },
  { name: 'strange', description: 'Unknown capability.', risk: 'read', capabilities: ['teleport'], concurrencySafe: true,
    inputJsonSchema: { type: 'object' }, async execute() { return 'ran'; } },
];\n`;
    const plugin = testdir(pluginTree('floors', join(scratch, 'marker'), { module }));
    const home = testdir();
    trustPlugin({ homeDir: home, target: plugin });
    const tools = (await loadPlugins({ homeDir: home })).sources[0]?.tools ?? [];
    expect(tools.map((tool) => [tool.name, tool.risk, resolveToolSecurity(tool).risk])).toEqual([
      ['sneaky', 'read', 'execute'],
      ['vague', 'read', 'execute'],
      ['strange', 'read', 'execute'],
    ]);
  });

  it('finds an npm package plugin in <home>/plugins/node_modules through its package.json field', async () => {
    const scratch = testdir();
    const home = testdir({
      'plugins/node_modules/@acme/clawsmith-tools': {
        'package.json': JSON.stringify({ name: '@acme/clawsmith-tools', clawsmith: { tools: ['./dist/tools.mjs'] } }),
        'dist/tools.mjs': pluginTree('acme', join(scratch, 'marker'))['tools.mjs'] as string,
        'dist/helper.mjs': "export function greeting(who) { return 'Hi ' + who; }\n",
      },
    });
    const trusted = trustPlugin({ homeDir: home, target: '@acme/clawsmith-tools' });
    expect([trusted.name, trusted.entry.package, trusted.modules]).toEqual([
      '@acme/clawsmith-tools',
      '@acme/clawsmith-tools',
      ['./dist/tools.mjs'],
    ]);
    const loaded = await loadPlugins({ homeDir: home });
    expect(loaded.plugins[0]?.tools).toEqual(['acme_greet', 'acme_fail']);
  });

  it('loads nothing from a malformed plugins.json, and says so', async () => {
    const home = testdir({ 'plugins.json': '{ "version": 1, "plugins": [' });
    await expect(loadPlugins({ homeDir: home })).rejects.toMatchObject({ code: 'plugin_invalid' });
  });
});

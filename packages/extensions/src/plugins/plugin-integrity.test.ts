import { testdir } from '@clawsmith/test-utils';
import { existsSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginTree } from '../__fixtures__/plugin-tree.js';
import { loadPlugins } from './load-plugins.js';
import { pluginIntegrity } from './plugin-integrity.js';
import { trustPlugin } from './trust-plugin.js';

const PWNED = "export function greeting() { return 'pwned'; }\n";

describe(pluginIntegrity, () => {
  it('refuses a file linked from outside the folder, so a target changed after trust never runs', async () => {
    const outside = testdir({ 'helper.mjs': "export function greeting(who) { return 'Hi ' + who; }\n" });
    const marker = join(testdir(), 'marker');
    const plugin = testdir({
      ...pluginTree('linker', marker),
      'helper.mjs': { symlink: join(outside, 'helper.mjs') },
    });
    const home = testdir();
    expect(() => trustPlugin({ homeDir: home, target: plugin })).toThrow(
      expect.objectContaining({
        code: 'plugin_module_outside',
        message: `The plugin file helper.mjs in ${plugin} is a link to ${join(outside, 'helper.mjs')}, outside the plugin's folder; what it points at could change after trust. Copy the file into the plugin instead of linking it.`,
      }),
    );
    // Trusted with the hash an older clawsmith wrote (the link's text): refused at load, nothing runs.
    writeFileSync(join(outside, 'helper.mjs'), PWNED);
    const { writePluginConfiguration } = await import('./plugin-config.js');
    writePluginConfiguration(home, { version: 1, plugins: { linker: { path: plugin, integrity: 'sha256-old' } } });
    const loaded = await loadPlugins({ homeDir: home });
    expect(loaded.plugins.map((status) => [status.state, status.problem?.code])).toEqual([
      ['invalid', 'plugin_module_outside'],
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('hashes what a link inside the folder resolves to: a changed target or a retargeted link asks again', async () => {
    const marker = join(testdir(), 'marker');
    const plugin = testdir({
      ...pluginTree('inner', marker),
      'lib/real-helper.mjs': "export function greeting(who) { return 'Hello, ' + who + '!'; }\n",
      'lib/other-helper.mjs': PWNED,
      'helper.mjs': { symlink: './lib/real-helper.mjs' },
      shared: { symlink: 'lib' },
    });
    const home = testdir();
    trustPlugin({ homeDir: home, target: plugin });
    expect((await loadPlugins({ homeDir: home })).plugins[0]?.state).toBe('loaded');
    unlinkSync(marker);

    writeFileSync(join(plugin, 'lib/real-helper.mjs'), PWNED);
    expect((await loadPlugins({ homeDir: home })).plugins[0]?.state).toBe('changed');
    trustPlugin({ homeDir: home, target: plugin });

    // Same link text, other target: the folder the relative link goes through is swapped.
    renameSync(join(plugin, 'lib'), join(plugin, 'lib-old'));
    mkdirSync(join(plugin, 'lib'));
    writeFileSync(join(plugin, 'lib/real-helper.mjs'), "export function greeting() { return 'swapped'; }\n");
    writeFileSync(join(plugin, 'lib/other-helper.mjs'), PWNED);
    expect((await loadPlugins({ homeDir: home })).plugins[0]?.state).toBe('changed');
    expect(existsSync(marker)).toBe(false);
  });

  it("covers the plugin's own node_modules and refuses a folder link that leads out", () => {
    const plugin = testdir({ ...pluginTree('deps', '/nonexistent/marker'), 'node_modules/dep/index.js': 'one' });
    const before = pluginIntegrity(plugin);
    writeFileSync(join(plugin, 'node_modules/dep/index.js'), 'two');
    expect(pluginIntegrity(plugin)).not.toBe(before);

    const outside = testdir({ 'x.mjs': '' });
    symlinkSync(outside, join(plugin, 'vendor'));
    expect(() => pluginIntegrity(plugin)).toThrow(expect.objectContaining({ code: 'plugin_module_outside' }));
  });
});

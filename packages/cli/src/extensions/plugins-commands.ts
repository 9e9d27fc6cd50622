import { resolveClawsmithHome } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { oneLine } from '../terminal/terminal-text.js';

/** Options of the `clawsmith plugins` commands. */
const pluginsCommandOptions = z.object({
  home: z.string().optional(),
  json: z.boolean().optional(),
  alwaysLoaded: z.string().optional(),
});

/**
 * `clawsmith plugins list`: every plugin in the home's `plugins.json` with its state. Loads the
 * trusted ones (that is what tells whether they load and which tools they offer); an untrusted or
 * changed plugin's code never runs.
 */
export async function pluginsListCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(pluginsCommandOptions, rawOptions, 'plugins list');
  const { loadPlugins, pluginConfigurationFile } = await import('@clawsmith/extensions');
  const homeDir = resolveClawsmithHome(options.home);
  const { plugins } = await loadPlugins({ homeDir });
  for (const plugin of plugins) {
    const where = plugin.entry.path ?? `package ${String(plugin.entry.package)}`;
    if (options.json) {
      process.stdout.write(`${JSON.stringify(plugin)}\n`);
      continue;
    }
    const always = plugin.entry.alwaysLoaded?.length ? ` (always loaded: ${plugin.entry.alwaysLoaded.join(', ')})` : '';
    process.stdout.write(
      `${plugin.name}  ${plugin.state}  ${plugin.tools.length > 0 ? `tools: ${plugin.tools.join(', ')}${always}` : ''}\n    ${oneLine(where, 300)}${plugin.problem ? `\n    ${oneLine(plugin.problem.message, 300)} [${plugin.problem.code}]` : ''}\n`,
    );
  }
  if (!options.json && plugins.length === 0)
    process.stdout.write(
      `No plugins configured (${pluginConfigurationFile(homeDir)}); add one with: clawsmith plugins trust <folder or package>\n`,
    );
  return EXIT_CODES.ok;
}

/** `clawsmith plugins trust TARGET`: record the integrity of a plugin's files as they are now (runs none of its code). */
export async function pluginsTrustCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  target: string,
): Promise<number> {
  const options = parseCommandOptions(pluginsCommandOptions, rawOptions, 'plugins trust');
  const { trustPlugin } = await import('@clawsmith/extensions');
  const alwaysLoaded =
    options.alwaysLoaded === undefined
      ? undefined
      : options.alwaysLoaded
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  const trusted = trustPlugin({
    homeDir: resolveClawsmithHome(options.home),
    target,
    ...(alwaysLoaded ? { alwaysLoaded } : {}),
  });
  process.stdout.write(
    `Trusted ${trusted.name} (${trusted.folder}) as ${trusted.entry.integrity}; tool modules: ${trusted.modules.join(', ')}.\n`,
  );
  return EXIT_CODES.ok;
}

/** `clawsmith plugins untrust NAME`: forget the integrity; the plugin is not loaded again until trusted. */
export async function pluginsUntrustCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  name: string,
): Promise<number> {
  const options = parseCommandOptions(pluginsCommandOptions, rawOptions, 'plugins untrust');
  const { untrustPlugin } = await import('@clawsmith/extensions');
  const removed = untrustPlugin({ homeDir: resolveClawsmithHome(options.home), name });
  process.stdout.write(removed ? `${name} is no longer trusted.\n` : `${name} was not trusted.\n`);
  return EXIT_CODES.ok;
}

import type { SettingsEntry } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions, settingsFlagsShape } from '../options/command-options.js';
import { resolveWorkspace } from '../commands/agent-runtime.js';
import { terminalSafe } from '../terminal/terminal-text.js';
import { settingsInputs } from './settings-flags.js';

const configOptions = z.object({
  ...settingsFlagsShape,
  home: z.string().optional(),
  workspace: z.string(),
  json: z.boolean().optional(),
});

function entryLine(entry: SettingsEntry): string {
  const state = entry.applied ? '' : '  (not applied: the project file is not trusted)';
  return `${entry.kind.padEnd(5)} ${terminalSafe(entry.text)}  <- ${terminalSafe(entry.source)}${state}`;
}

/** `clawsmith config`: every rule and hook of the workspace's effective settings, with its source. */
export async function configShowCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(configOptions, rawOptions, 'config show');
  const { effectiveSettings, resolveClawsmithHome } = await import('@clawsmith/core');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const settings = effectiveSettings(settingsInputs(resolveClawsmithHome(options.home), workspaceRoot, options));
  if (options.json) {
    for (const entry of settings.entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
  } else {
    if (settings.entries.length === 0) process.stdout.write('No rules or hooks: the permission mode decides.\n');
    for (const entry of settings.entries) process.stdout.write(`${entryLine(entry)}\n`);
    if (!settings.hookSandbox.on)
      process.stdout.write(
        `hooks run outside the command sandbox  <- ${terminalSafe(settings.hookSandbox.source)} ("sandboxHooks": false)\n`,
      );
  }
  for (const notice of settings.notices) process.stderr.write(`clawsmith: ${notice}\n`);
  return EXIT_CODES.ok;
}

/** `clawsmith config trust`: trusts the project's settings files as they are now. */
export async function configTrustCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(configOptions, rawOptions, 'config trust');
  const { resolveClawsmithHome, trustProjectSettings } = await import('@clawsmith/core');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const trusted = trustProjectSettings(resolveClawsmithHome(options.home), workspaceRoot);
  if (trusted.length === 0) process.stdout.write(`${workspaceRoot} has no project settings files to trust.\n`);
  for (const file of trusted)
    process.stdout.write(`trusted ${terminalSafe(file)} as it is now (a change asks again)\n`);
  return EXIT_CODES.ok;
}

import { resolveClawsmithHome } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { resolveWorkspace } from './agent-runtime.js';

/** Options of `clawsmith lsp trust` and `clawsmith lsp untrust`. */
const lspTrustOptions = z.object({
  home: z.string().optional(),
  workspace: z.string(),
});

/**
 * `clawsmith lsp trust`: the person trusts the workspace's language tooling as it is now (its
 * lsp.json settings, a project-local TypeScript, pyright's configuration); a change asks again.
 */
export async function lspTrustCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(lspTrustOptions, rawOptions, 'lsp trust');
  const { LanguageToolingTrustStore, LANGUAGE_TOOLING_FILES } = await import('@clawsmith/lsp');
  const workspaceRoot = resolveWorkspace(options.workspace);
  new LanguageToolingTrustStore(resolveClawsmithHome(options.home)).trust(workspaceRoot);
  process.stdout.write(
    `Trusted the language tooling of ${workspaceRoot} as it is now (${LANGUAGE_TOOLING_FILES.join(', ')} and the files its lsp.json names); language servers may now load it. A change to those files asks again.\n`,
  );
  return EXIT_CODES.ok;
}

/** `clawsmith lsp untrust`: language servers load nothing from the workspace again. */
export async function lspUntrustCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(lspTrustOptions, rawOptions, 'lsp untrust');
  const { LanguageToolingTrustStore } = await import('@clawsmith/lsp');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const removed = new LanguageToolingTrustStore(resolveClawsmithHome(options.home)).untrust(workspaceRoot);
  process.stdout.write(
    removed
      ? `The language tooling of ${workspaceRoot} is no longer trusted.\n`
      : `The language tooling of ${workspaceRoot} was not trusted.\n`,
  );
  return EXIT_CODES.ok;
}

import type { SettingsInputs } from '@clawsmith/core';

/** What `--allow`, `--ask`, `--deny` and `--settings` gave, as commander collects them. */
export interface SettingsFlags {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly settings?: readonly string[];
}

/** The settings inputs of an entry: the flags, read for `workspaceRoot` in `homeDir`. */
export function settingsInputs(homeDir: string, workspaceRoot: string, flags: SettingsFlags): SettingsInputs {
  return {
    homeDir,
    workspaceRoot,
    ...(flags.settings ? { settingsFiles: flags.settings } : {}),
    ...(flags.allow ? { allow: flags.allow } : {}),
    ...(flags.ask ? { ask: flags.ask } : {}),
    ...(flags.deny ? { deny: flags.deny } : {}),
  };
}

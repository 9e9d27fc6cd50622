import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The codes this package throws, returns or reports. Pinned by the public-surface test. */
export const EXTENSIONS_ERROR_CODES = Object.freeze({
  /** `skill_view` named a skill that was not found; the message lists the closest names. */
  skillNotFound: 'skill_not_found',
  /** A skill's `SKILL.md` front matter is missing, not valid YAML, or lacks `name`/`description`. */
  skillInvalid: 'skill_invalid',
  /** A skill file path is absolute, contains `..`, or resolves (through a link) outside the skill's folder. */
  skillPathOutside: 'skill_path_outside',
  /** The skill file does not exist or is not a regular file. */
  skillFileNotFound: 'skill_file_not_found',
  /** `memory_search` got a query with no searchable word. */
  memoryQueryEmpty: 'memory_query_empty',
  /** The memory index could not be opened, built or searched. */
  memoryIndexFailed: 'memory_index_failed',
  /** A plugin's manifest is missing or malformed. */
  pluginInvalid: 'plugin_invalid',
  /** A plugin manifest names a module outside the plugin's folder (absolute, `..`, or a link out), or a link in the folder leads out. */
  pluginModuleOutside: 'plugin_module_outside',
  /** The plugin is not listed in the home configuration with an integrity hash. */
  pluginUntrusted: 'plugin_untrusted',
  /** The plugin's files changed since it was trusted. */
  pluginChanged: 'plugin_changed',
  /** The plugin's module threw while loading, or exported no usable tools. */
  pluginLoadFailed: 'plugin_load_failed',
  /** `clawsmith plugins trust/untrust` named a plugin that cannot be found. */
  pluginNotFound: 'plugin_not_found',
} as const);

/** One of the {@link EXTENSIONS_ERROR_CODES}. */
export type ExtensionsErrorCode = (typeof EXTENSIONS_ERROR_CODES)[keyof typeof EXTENSIONS_ERROR_CODES];

/** A failure of this package with a stable code and a message that says what to do next. */
export class ExtensionsError extends ClawsmithError {
  constructor(code: ExtensionsErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'ExtensionsError';
  }
}

// Everything exported here is the public API of @clawsmith/extensions; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ExtensionsErrorCode } from './extensions-error.js';
export { EXTENSIONS_ERROR_CODES, ExtensionsError } from './extensions-error.js';

export type { SkillRoot, SkillScope } from './skills/skill-roots.js';
export { skillRoots } from './skills/skill-roots.js';
export type { DiscoverSkillsOptions, Skill, SkillCatalog, SkillProblem } from './skills/discover-skills.js';
export {
  MAX_SKILLS_PER_ROOT,
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_NAME_LENGTH,
  discoverSkills,
} from './skills/discover-skills.js';
export { MAX_FRONT_MATTER_ALIASES, MAX_FRONT_MATTER_BYTES } from './skills/front-matter.js';
export { MAX_SKILL_FILE_BYTES } from './skills/skill-file.js';
export type { SkillViewInput, SkillViewToolOptions } from './skills/skill-view-tool.js';
export { MAX_LISTED_SKILLS, SKILL_VIEW_TOOL_NAME, createSkillViewTool } from './skills/skill-view-tool.js';
export { SKILLS_PROMPT_LIMITS, skillsPromptSection } from './skills/skills-prompt.js';

export type { MemorySourceFile, MemorySourceList } from './memory/memory-sources.js';
export {
  MAX_MEMORY_FILES,
  MAX_MEMORY_FILE_BYTES,
  WORKSPACE_MEMORY_FILES,
  listMemorySources,
} from './memory/memory-sources.js';
export { MAX_QUERY_TERMS, ftsQuery } from './memory/fts-query.js';
export type { MemoryHit, MemoryIndexOptions, MemoryRefresh } from './memory/memory-index.js';
export { DEFAULT_MEMORY_RECHECK_MS, MemoryIndex } from './memory/memory-index.js';
export type { MemorySearch, MemorySearchInput } from './memory/memory-search-tool.js';
export { MEMORY_SEARCH_LIMITS, MEMORY_SEARCH_TOOL_NAME, createMemorySearch } from './memory/memory-search-tool.js';

export type { PluginConfiguration, PluginEntry } from './plugins/plugin-config.js';
export {
  pluginConfigurationFile,
  pluginPackagesFolder,
  readPluginConfiguration,
  writePluginConfiguration,
} from './plugins/plugin-config.js';
export type { PluginManifest } from './plugins/plugin-manifest.js';
export { MAX_PLUGIN_MODULES, PLUGIN_MANIFEST_FILE, readPluginManifest } from './plugins/plugin-manifest.js';
export { PLUGIN_INTEGRITY_LIMITS, pluginIntegrity } from './plugins/plugin-integrity.js';
export type {
  LoadPluginsOptions,
  LoadedPlugins,
  PluginState,
  PluginStatus,
  PluginToolSource,
} from './plugins/load-plugins.js';
export { loadPlugins } from './plugins/load-plugins.js';
export type { TrustPluginOptions, TrustedPlugin } from './plugins/trust-plugin.js';
export { trustPlugin, untrustPlugin } from './plugins/trust-plugin.js';

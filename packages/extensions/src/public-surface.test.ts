import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/extensions public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_MEMORY_RECHECK_MS',
      'EXTENSIONS_ERROR_CODES',
      'ExtensionsError',
      'MAX_FRONT_MATTER_ALIASES',
      'MAX_FRONT_MATTER_BYTES',
      'MAX_LISTED_SKILLS',
      'MAX_MEMORY_FILES',
      'MAX_MEMORY_FILE_BYTES',
      'MAX_PLUGIN_MODULES',
      'MAX_QUERY_TERMS',
      'MAX_SKILLS_PER_ROOT',
      'MAX_SKILL_DESCRIPTION_LENGTH',
      'MAX_SKILL_FILE_BYTES',
      'MAX_SKILL_NAME_LENGTH',
      'MEMORY_SEARCH_LIMITS',
      'MEMORY_SEARCH_TOOL_NAME',
      'MemoryIndex',
      'PLUGIN_INTEGRITY_LIMITS',
      'PLUGIN_MANIFEST_FILE',
      'SKILLS_PROMPT_LIMITS',
      'SKILL_VIEW_TOOL_NAME',
      'WORKSPACE_MEMORY_FILES',
      'createMemorySearch',
      'createSkillViewTool',
      'discoverSkills',
      'ftsQuery',
      'listMemorySources',
      'loadPlugins',
      'pluginConfigurationFile',
      'pluginIntegrity',
      'pluginPackagesFolder',
      'readPluginConfiguration',
      'readPluginManifest',
      'skillRoots',
      'skillsPromptSection',
      'trustPlugin',
      'untrustPlugin',
      'writePluginConfiguration',
    ]);
  });

  it('pins the codes and the limits', () => {
    expect(api.EXTENSIONS_ERROR_CODES).toEqual({
      skillNotFound: 'skill_not_found',
      skillInvalid: 'skill_invalid',
      skillPathOutside: 'skill_path_outside',
      skillFileNotFound: 'skill_file_not_found',
      memoryQueryEmpty: 'memory_query_empty',
      memoryIndexFailed: 'memory_index_failed',
      pluginInvalid: 'plugin_invalid',
      pluginModuleOutside: 'plugin_module_outside',
      pluginUntrusted: 'plugin_untrusted',
      pluginChanged: 'plugin_changed',
      pluginLoadFailed: 'plugin_load_failed',
      pluginNotFound: 'plugin_not_found',
    });
    expect(api.MAX_FRONT_MATTER_BYTES).toBe(65_536);
    expect(api.MAX_FRONT_MATTER_ALIASES).toBe(50);
    expect(api.MAX_SKILL_FILE_BYTES).toBe(100_000);
    expect(api.MAX_SKILLS_PER_ROOT).toBe(1_000);
    expect(api.MAX_SKILL_NAME_LENGTH).toBe(64);
    expect(api.MAX_SKILL_DESCRIPTION_LENGTH).toBe(1_024);
    expect(api.MAX_LISTED_SKILLS).toBe(200);
    expect(api.SKILLS_PROMPT_LIMITS).toEqual({ skills: 50, descriptionLength: 200, totalLength: 8_000 });
    expect(api.SKILL_VIEW_TOOL_NAME).toBe('skill_view');
    expect(api.MEMORY_SEARCH_TOOL_NAME).toBe('memory_search');
    expect(api.MEMORY_SEARCH_LIMITS).toEqual({ defaultResults: 5, maxResults: 20, snippetLength: 400 });
    expect(api.MAX_MEMORY_FILES).toBe(20_000);
    expect(api.MAX_MEMORY_FILE_BYTES).toBe(1_048_576);
    expect(api.WORKSPACE_MEMORY_FILES).toEqual(['AGENTS.md', 'CLAWSMITH.md']);
    expect(api.MAX_QUERY_TERMS).toBe(16);
    expect(api.DEFAULT_MEMORY_RECHECK_MS).toBe(1_000);
    expect(api.PLUGIN_MANIFEST_FILE).toBe('clawsmith-plugin.json');
    expect(api.MAX_PLUGIN_MODULES).toBe(32);
    expect(api.PLUGIN_INTEGRITY_LIMITS).toEqual({ files: 20_000, bytes: 268_435_456 });
  });

  it('skill_view is a read tool that names no workspace path', () => {
    const tool = api.createSkillViewTool();
    expect([tool.risk, tool.capabilities, tool.concurrencySafe, tool.pathArguments, tool.deferred]).toEqual([
      'read',
      ['filesystem.read'],
      true,
      [],
      undefined,
    ]);
    expect(api.createSkillViewTool({ deferred: true }).deferred).toBe(true);
  });

  it('memory_search is a deferred read tool that names no workspace path', () => {
    const { tool, close } = api.createMemorySearch({ homeDir: '/nonexistent-home' });
    expect([tool.risk, tool.capabilities, tool.concurrencySafe, tool.pathArguments, tool.deferred]).toEqual([
      'read',
      ['filesystem.read'],
      true,
      [],
      true,
    ]);
    close();
  });
});

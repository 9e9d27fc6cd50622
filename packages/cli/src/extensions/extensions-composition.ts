import type { ToolSource } from '@clawsmith/core';
import { oneLine } from '../terminal/terminal-text.js';

/** Skills, memory and trusted plugins of one cli process, ready for the core. */
export interface CliExtensions {
  /** `extension:skills`, `extension:memory`, and one `plugin:<name> (<folder>)` source per loaded plugin. */
  readonly sources: readonly ToolSource[];
  /** The system prompt's skill section for a session's workspace (empty without skills). */
  instructions(workspaceRoot: string): string;
  /** Closes the memory index. */
  close(): void;
}

/** What {@link openCliExtensions} needs. */
export interface CliExtensionsOptions {
  readonly homeDir: string;
  /**
   * The workspace of a new session, when known: its skills decide whether `skill_view` starts
   * deferred. Unknown (`clawsmith web`, whose sessions each have their own workspace): loaded.
   */
  readonly workspaceRoot?: string;
  /** Told about skills that cannot be used and plugins that are not loaded. */
  readonly onNotice: (notice: string) => void;
}

/**
 * The one way an entry point that runs an agent (`run`, `chat`, `web`, `mcp serve`) asks
 * `openAgentRuntime` for the extensions: in `workspaceRoot` when the entry knows it, with
 * notices on stderr (never stdout, which `mcp serve` and `run --json` reserve).
 */
export function entryExtensions(workspaceRoot: string | undefined): Omit<CliExtensionsOptions, 'homeDir'> {
  return {
    ...(workspaceRoot ? { workspaceRoot } : {}),
    onNotice: (notice) => process.stderr.write(`clawsmith: ${oneLine(notice, 500)}\n`),
  };
}

/**
 * Composes `@clawsmith/extensions` for every entry point that runs an agent: `skill_view`
 * (deferred when the session's workspace is known and no skill exists at startup),
 * `memory_search` (deferred; its index opens on first use) and the plugins the home's
 * `plugins.json` trusts. A malformed `plugins.json` loads no plugin and says why; the session goes
 * on without them.
 */
export async function openCliExtensions(options: CliExtensionsOptions): Promise<CliExtensions> {
  const { createMemorySearch, createSkillViewTool, discoverSkills, loadPlugins, skillsPromptSection } =
    await import('@clawsmith/extensions');
  const catalog = discoverSkills({
    homeDir: options.homeDir,
    ...(options.workspaceRoot !== undefined ? { workspaceRoot: options.workspaceRoot } : {}),
  });
  for (const problem of catalog.problems)
    options.onNotice(`skill ${problem.file}:${problem.line}: ${problem.message} [${problem.code}]`);
  const skillView = createSkillViewTool({
    homeDir: options.homeDir,
    deferred: options.workspaceRoot !== undefined && catalog.skills.length === 0,
  });
  const memory = createMemorySearch({ homeDir: options.homeDir });
  let pluginSources: readonly ToolSource[] = [];
  try {
    pluginSources = (await loadPlugins({ homeDir: options.homeDir, onNotice: options.onNotice })).sources;
  } catch (error) {
    options.onNotice((error as Error).message);
  }
  return {
    sources: [
      { source: 'extension:skills', tools: [skillView] },
      { source: 'extension:memory', tools: [memory.tool] },
      ...pluginSources,
    ],
    instructions(workspaceRoot) {
      const current =
        workspaceRoot === options.workspaceRoot ? catalog : discoverSkills({ homeDir: options.homeDir, workspaceRoot });
      return skillsPromptSection(current);
    },
    close: () => memory.close(),
  };
}

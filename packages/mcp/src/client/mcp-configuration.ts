import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalSha256 } from '@clawsmith/tool-protocol';
import { mcpConfigFileSchema, mcpServerEntrySchema, type McpServerEntry } from './server-entry.js';

/**
 * Where an entry was written: the person's own file in the home, a file in the workspace, or the
 * person's editor (the `mcpServers` an ACP client sends for one session).
 */
export type McpServerScope = 'user' | 'project' | 'editor';

/** A server the person configured in their editor, handed over for one session. */
export interface EditorMcpServer {
  /** The name the editor gives it (tools are `mcp__<name>__<tool>`). */
  readonly name: string;
  /** Its entry, in the same shape as a configuration file's (`${VAR}` references expand alike). */
  readonly entry: McpServerEntry;
}

/** What an editor entry is called where a file name would be shown. */
export const EDITOR_CONFIGURATION = '(editor settings)';

/** One configured server, as read. */
export interface ConfiguredMcpServer {
  /** The key in `mcpServers`. */
  readonly name: string;
  readonly scope: McpServerScope;
  /** The file it came from. */
  readonly file: string;
  /** The entry as written (`${VAR}` references unexpanded). */
  readonly entry: McpServerEntry;
  /** SHA-256 of the canonical JSON of the entry as written: what trust records. */
  readonly entrySha256: string;
}

/** Something in a configuration file that could not be used; that server (or file) is left out. */
export interface McpConfigurationProblem {
  readonly file: string;
  readonly server?: string;
  readonly message: string;
}

/** Every server clawsmith would use for one workspace, and what it had to leave out. */
export interface McpConfiguration {
  readonly servers: readonly ConfiguredMcpServer[];
  /** Entries of the same name in a lower-precedence file, shadowed by the one in `servers`. */
  readonly shadowed: readonly ConfiguredMcpServer[];
  readonly problems: readonly McpConfigurationProblem[];
}

/** The configuration files, highest precedence first. */
export function mcpConfigurationFiles(
  homeDir: string,
  workspaceRoot?: string,
): { file: string; scope: McpServerScope }[] {
  const files: { file: string; scope: McpServerScope }[] = [{ file: join(homeDir, 'mcp.json'), scope: 'user' }];
  if (workspaceRoot !== undefined) {
    files.push({ file: join(workspaceRoot, '.clawsmith', 'mcp.json'), scope: 'project' });
    files.push({ file: join(workspaceRoot, '.mcp.json'), scope: 'project' });
  }
  return files;
}

function readJson(file: string): { ok: true; value: unknown } | { ok: false; missing: boolean; message: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, missing, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, missing: false, message: `is not JSON: ${(error as Error).message}` };
  }
}

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not have the expected shape';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Reads the user file (`<home>/mcp.json`) and, with a workspace, the project files
 * (`.clawsmith/mcp.json`, then `.mcp.json` for compatibility). The user file wins over the
 * project files, and `.clawsmith/mcp.json` over `.mcp.json`: a repository cannot replace an entry
 * the person wrote. Servers an editor hands over (`editorServers`) win over every file. Never
 * throws: unreadable files and bad entries become `problems`.
 */
export function loadMcpConfiguration(options: {
  homeDir: string;
  workspaceRoot?: string;
  editorServers?: readonly EditorMcpServer[];
}): McpConfiguration {
  const servers = new Map<string, ConfiguredMcpServer>();
  const shadowed: ConfiguredMcpServer[] = [];
  const problems: McpConfigurationProblem[] = [];
  // The editor's servers come first: the person asked for them in this very session.
  for (const { name, entry: raw } of options.editorServers ?? []) {
    const entry = mcpServerEntrySchema.safeParse(raw);
    if (!entry.success) {
      problems.push({
        file: EDITOR_CONFIGURATION,
        server: name,
        message: `The entry needs "command" (stdio) or "url" (HTTP): ${firstIssue(entry.error)}. It is left out.`,
      });
      continue;
    }
    const configured: ConfiguredMcpServer = Object.freeze({
      name,
      scope: 'editor',
      file: EDITOR_CONFIGURATION,
      entry: entry.data,
      entrySha256: canonicalSha256(raw),
    });
    if (servers.has(name)) shadowed.push(configured);
    else servers.set(name, configured);
  }
  for (const { file, scope } of mcpConfigurationFiles(options.homeDir, options.workspaceRoot)) {
    const read = readJson(file);
    if (!read.ok) {
      if (!read.missing) problems.push({ file, message: `The file ${read.message}; its servers are left out.` });
      continue;
    }
    const parsed = mcpConfigFileSchema.safeParse(read.value);
    if (!parsed.success) {
      problems.push({ file, message: `The file is not an object with "mcpServers" (${firstIssue(parsed.error)}).` });
      continue;
    }
    for (const [name, raw] of Object.entries(parsed.data.mcpServers ?? {})) {
      const entry = mcpServerEntrySchema.safeParse(raw);
      if (!entry.success) {
        problems.push({
          file,
          server: name,
          message: `The entry needs "command" (stdio) or "url" (HTTP): ${firstIssue(entry.error)}. It is left out.`,
        });
        continue;
      }
      const configured: ConfiguredMcpServer = Object.freeze({
        name,
        scope,
        file,
        entry: entry.data,
        entrySha256: canonicalSha256(raw),
      });
      if (servers.has(name)) shadowed.push(configured);
      else servers.set(name, configured);
    }
  }
  return Object.freeze({ servers: Object.freeze([...servers.values()]), shadowed, problems });
}

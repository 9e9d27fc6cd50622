import { isAbsolute, relative } from 'node:path';
import type { PermissionAction, PermissionRule } from '@clawsmith/tool-host';
import { TOOL_ALIASES, type SpecifierKind } from './tool-aliases.js';

/** A rule string that cannot be read; `message` says what to write instead. */
export class SettingsRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsRuleError';
  }
}

const RULE_SHAPE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;

function kindOf(toolName: string): { tools: readonly string[]; kind?: SpecifierKind } {
  const alias = TOOL_ALIASES[toolName];
  if (alias) return { tools: alias.tools, kind: alias.specifier };
  // Our own name: read its specifier as the alias that lists it does.
  const owner = Object.values(TOOL_ALIASES).find((entry) => entry.tools.includes(toolName));
  return { tools: [toolName], ...(owner ? { kind: owner.specifier } : {}) };
}

/**
 * A path specifier as a workspace-relative glob: `./secrets/**`, `secrets/**` and `/secrets/**`
 * are relative to the workspace root; `//abs/path` is absolute (inside the workspace it becomes
 * relative; outside it matches nothing the file tools can reach); a pattern without `/` matches at
 * any depth (`*.env` is `**\/*.env`), as in `.gitignore`.
 */
function pathGlob(specifier: string, workspaceRoot: string, rule: string): string {
  let text = specifier.trim();
  if (text === '') throw new SettingsRuleError(`${rule}: the path is empty; write for example Read(./secrets/**)`);
  if (text.startsWith('~'))
    throw new SettingsRuleError(
      `${rule}: paths in the home folder are outside every workspace; write a path inside the workspace such as Read(./secrets/**)`,
    );
  if (text.startsWith('//')) {
    const absolute = text.slice(1);
    const inside = relative(workspaceRoot, absolute).replaceAll('\\', '/');
    if (inside.startsWith('..') || isAbsolute(inside))
      throw new SettingsRuleError(
        `${rule}: ${absolute} is outside the workspace ${workspaceRoot}; the file tools never reach it, so the rule would match nothing`,
      );
    if (inside === '') return '**';
    return text.endsWith('/') ? `${inside}/**` : inside;
  }
  if (text.startsWith('./')) text = text.slice(2);
  else if (text.startsWith('/')) text = text.slice(1);
  else if (!text.includes('/')) text = `**/${text}`;
  return text.replace(/\/$/, '/**');
}

function commandCriteria(specifier: string, rule: string): Pick<PermissionRule, 'commandPrefix' | 'exactCommand'> {
  const text = specifier.trim();
  if (text === '*' || text === '') return {};
  const prefix = /^(.*?)(?::\*| \*)$/s.exec(text)?.[1]?.trim();
  if (prefix !== undefined) {
    if (prefix.includes('*'))
      throw new SettingsRuleError(
        `${rule}: only a prefix ending in :* is understood; write for example Bash(npm test:*)`,
      );
    return { commandPrefix: prefix };
  }
  if (text.includes('*'))
    throw new SettingsRuleError(`${rule}: a * may only end a command prefix, as in Bash(npm test:*)`);
  return { commandPrefix: text, exactCommand: true };
}

/**
 * Reads one `Tool(specifier)` rule of a settings file into the permission rules it stands for
 * (one per tool the name covers). `Bash(npm test:*)` is a prefix judged over each simple command,
 * `Bash(npm test)` the exact command; `Read(./secrets/**)` and `Edit(src/**)` are path globs on
 * the resolved workspace path; `WebFetch(domain:example.com)` a host and its subdomains;
 * `mcp__server__tool` (or `mcp__server__*`) an MCP tool. Throws {@link SettingsRuleError}.
 */
export function parseSettingsRule(
  text: string,
  action: PermissionAction,
  workspaceRoot: string,
  source: string,
): PermissionRule[] {
  const shape = RULE_SHAPE.exec(text.trim());
  if (!shape)
    throw new SettingsRuleError(
      `${JSON.stringify(text)} is not a rule; write a tool name, optionally with a specifier: Bash(npm test:*), Read(./secrets/**), mcp__server__tool`,
    );
  const [, name, specifier] = shape as unknown as [string, string, string | undefined];
  const { tools, kind } = kindOf(name);
  const reason = `${action} ${text.trim()} (${source})`;
  let criteria: Partial<PermissionRule> = {};
  if (specifier !== undefined && specifier.trim() !== '*' && specifier.trim() !== '') {
    if (kind === 'command') criteria = commandCriteria(specifier, text);
    else if (kind === 'path') criteria = { paths: [pathGlob(specifier, workspaceRoot, text)] };
    else if (kind === 'domain') {
      const domain = /^domain:([A-Za-z0-9.-]+)$/.exec(specifier.trim())?.[1];
      if (!domain) throw new SettingsRuleError(`${text}: write the host as WebFetch(domain:example.com)`);
      // The host and everything below it, as the familiar shape reads `domain:`.
      const host = domain.toLowerCase();
      criteria = { domains: [host, `*.${host}`] };
    } else
      throw new SettingsRuleError(
        `${text}: ${name} takes no specifier; write ${name} alone (specifiers are understood for ${Object.keys(TOOL_ALIASES).join(', ')})`,
      );
  }
  return tools.map((tool) => ({ action, tool, ...criteria, reason }));
}

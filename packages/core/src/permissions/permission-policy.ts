import type { ResolvedToolSecurity, ToolCapability } from '@clawsmith/tool-protocol';
import micromatch from 'micromatch';

/**
 * How much the agent may do without asking:
 * - `default`: reads run; workspace writes and commands ask;
 * - `accept-edits`: workspace writes run too; commands ask;
 * - `read-only`: anything above read is denied, whatever the rules say;
 * - `full-auto`: everything runs (the sandbox and the hard refusals still apply).
 */
export type PermissionMode = 'default' | 'accept-edits' | 'read-only' | 'full-auto';

/** Every {@link PermissionMode}. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'read-only', 'full-auto'];

/** What a rule or the policy decides for one call. */
export type PermissionAction = 'allow' | 'ask' | 'deny';

/**
 * A rule that matches calls by tool name (a glob such as `mcp_*`), by capability, by path
 * (globs matched against the workspace-relative paths a file tool names) or by command prefix
 * (for `run_command`-like tools). Every criterion given must match. Among matching rules, deny
 * beats ask beats allow.
 */
export interface PermissionRule {
  readonly action: PermissionAction;
  readonly tool?: string;
  readonly capability?: ToolCapability;
  readonly paths?: readonly string[];
  readonly commandPrefix?: string;
  /** Shown in the audit log and the approval prompt. */
  readonly reason?: string;
}

/** The decision for one call and why. */
export interface PermissionDecision {
  readonly action: PermissionAction;
  readonly reason: string;
}

/** What the policy looks at. */
export interface PermissionRequest {
  readonly toolName: string;
  readonly input: unknown;
  readonly security: ResolvedToolSecurity;
}

const PATH_FIELDS = ['path', 'from', 'to', 'source', 'target', 'destination'] as const;

function pathsOf(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const paths: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string') paths.push(value.replace(/^\.\//, ''));
  }
  return paths;
}

function commandOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>).command;
  return typeof value === 'string' ? value.trim() : undefined;
}

function ruleMatches(rule: PermissionRule, request: PermissionRequest): boolean {
  if (rule.tool !== undefined && !micromatch.isMatch(request.toolName, rule.tool)) return false;
  if (rule.capability !== undefined && !request.security.capabilities.includes(rule.capability)) return false;
  if (rule.paths !== undefined) {
    const paths = pathsOf(request.input);
    // A rule about paths says nothing about a call that names none; every named path must match.
    if (paths.length === 0 || !paths.every((path) => micromatch.isMatch(path, rule.paths as string[], { dot: true })))
      return false;
  }
  if (rule.commandPrefix !== undefined) {
    const command = commandOf(request.input);
    if (command === undefined) return false;
    const prefix = rule.commandPrefix.trim();
    if (command !== prefix && !command.startsWith(`${prefix} `)) return false;
  }
  return true;
}

function describeRule(rule: PermissionRule): string {
  const criteria = [
    rule.tool !== undefined ? `tool ${rule.tool}` : undefined,
    rule.capability !== undefined ? `capability ${rule.capability}` : undefined,
    rule.paths !== undefined ? `paths ${rule.paths.join(', ')}` : undefined,
    rule.commandPrefix !== undefined ? `command prefix "${rule.commandPrefix}"` : undefined,
  ].filter(Boolean);
  return `rule ${rule.action} (${criteria.join('; ') || 'every call'})${rule.reason ? `: ${rule.reason}` : ''}`;
}

const ACTION_STRENGTH: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

function modeDecision(mode: PermissionMode, security: ResolvedToolSecurity): PermissionDecision {
  const risk = security.risk;
  if (risk === 'read') return { action: 'allow', reason: `mode ${mode}: reads are allowed` };
  switch (mode) {
    case 'full-auto':
      return { action: 'allow', reason: `mode full-auto: ${risk} is allowed` };
    case 'read-only':
      return { action: 'deny', reason: `mode read-only: ${risk} is not allowed` };
    case 'accept-edits':
      return risk === 'workspace-write'
        ? { action: 'allow', reason: 'mode accept-edits: workspace writes are allowed' }
        : { action: 'ask', reason: `mode accept-edits: ${risk} needs approval` };
    default:
      return { action: 'ask', reason: `mode default: ${risk} needs approval` };
  }
}

/**
 * Decides allow, ask or deny for one call. `read-only` is a ceiling no rule lifts. Otherwise the
 * strongest matching rule decides (deny > ask > allow); with no matching rule, the mode does.
 */
export function decidePermission(
  mode: PermissionMode,
  rules: readonly PermissionRule[],
  request: PermissionRequest,
): PermissionDecision {
  const byMode = modeDecision(mode, request.security);
  if (mode === 'read-only' && byMode.action === 'deny') return byMode;
  let strongest: PermissionRule | undefined;
  for (const rule of rules) {
    if (!ruleMatches(rule, request)) continue;
    if (!strongest || ACTION_STRENGTH[rule.action] > ACTION_STRENGTH[strongest.action]) strongest = rule;
  }
  if (!strongest) return byMode;
  return { action: strongest.action, reason: describeRule(strongest) };
}

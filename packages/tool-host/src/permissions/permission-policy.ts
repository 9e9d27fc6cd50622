import type { ResolvedToolSecurity, ToolCapability } from '@clawsmith/tool-protocol';
import { matchesDomainPattern } from '@clawsmith/tool-protocol';
import { resolveCallFacts, type CallFacts } from './call-facts.js';
import { commandPrefixMatches } from './command-prefix.js';
import { pathGlobTest, toolGlobTest } from './glob-matchers.js';
import type { RequestPath } from './request-paths.js';
import { secretFileRule } from './secret-files.js';

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
 * A rule that matches calls by tool name (a glob such as `mcp_*`), by capability, by path or by
 * command prefix. Every criterion given must match. Among matching rules, deny beats ask beats
 * allow.
 *
 * Paths are globs matched against the workspace-relative paths the tool will actually touch,
 * resolved as it resolves them (`src/../secrets/k`, `secrets/./k`, an absolute path inside the
 * workspace and a symlink into `secrets/` are all `secrets/k`). A deny or ask rule matches when
 * any path of the call matches, ignoring case; an allow rule only when all do. A search or glob
 * whose scope lies inside a denied path is denied; one whose scope merely contains it leaves it
 * out and says so. A command prefix is judged over each simple command the text runs (each side
 * of `;`, `&&`, `||`, `|`, newlines, and those in subshells and substitutions): an allow rule
 * matches only when every one is plain (fixed words, no redirection, assignment or `&`) and
 * starts with the prefix's words; a deny or ask rule matches when any one may start with them
 * (a word only known when it runs counts as matching), or when the text is not valid bash.
 * Domains match the host of the URL a call fetches (its `url` input, as `web_fetch` takes it):
 * `example.com` that host only, `*.example.com` any host below it, `*` every host; a rule with
 * domains says nothing about a call that names no URL. A `url` that is not a readable http(s) URL
 * may point anywhere: deny and ask rules with domains match it, allow rules never do.
 */
export interface PermissionRule {
  readonly action: PermissionAction;
  readonly tool?: string;
  readonly capability?: ToolCapability;
  readonly paths?: readonly string[];
  readonly commandPrefix?: string;
  /**
   * Domain patterns of the URL the call fetches (its `url` input, as `web_fetch` takes it), for
   * example `docs.example.com`, or `example.com` with `*.example.com` for a host and everything below it.
   */
  readonly domains?: readonly string[];
  /** With `commandPrefix`: the command's words must be exactly the prefix's. */
  readonly exactCommand?: boolean;
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
  /**
   * The paths the call touches, resolved as the tool resolves them (`requestPaths`). When absent
   * (and no `facts` are given) they are read lexically from the input's `path`, `from`, `to`,
   * `source`, `target` and `destination` fields.
   */
  readonly paths?: readonly RequestPath[];
  /**
   * What the call touches, resolved once (`resolveCallFacts`): its paths, parsed commands and
   * URL host. When given, the policy reads them instead of the input and `paths`.
   */
  readonly facts?: CallFacts;
}

/** The request's facts: given once by the caller, else resolved here once for this entry. */
function factsOf(request: PermissionRequest): CallFacts {
  if (request.facts) return request.facts;
  const lexical = resolveCallFacts(undefined, request.input);
  return request.paths ? { ...lexical, paths: request.paths } : lexical;
}

interface JudgedRequest {
  readonly toolName: string;
  readonly security: ResolvedToolSecurity;
  readonly facts: CallFacts;
}

function domainsMatch(rule: PermissionRule, facts: CallFacts): boolean {
  // A rule about domains says nothing about a call that names no URL.
  if (!facts.url) return false;
  const host = facts.url.host;
  // A URL that cannot be read may be anywhere: deny and ask rules match it, allow rules do not.
  if (host === undefined) return rule.action !== 'allow';
  return rule.domains!.some((pattern) => matchesDomainPattern(host, pattern));
}

function pathMatches(rule: PermissionRule, path: RequestPath): boolean {
  const globs = rule.paths as readonly string[];
  // A deny or ask rule matches when any form of the path does, ignoring case (a case-insensitive
  // disk opens Secrets/ for secrets/**); an allow rule only when every form does, exactly.
  if (rule.action === 'allow') return path.forms.every(pathGlobTest(globs, false));
  return path.forms.some(pathGlobTest(globs, true));
}

function pathsMatch(rule: PermissionRule, paths: readonly RequestPath[]): boolean {
  // A rule about paths says nothing about a call that names none.
  if (paths.length === 0) return false;
  return rule.action === 'allow'
    ? paths.every((path) => pathMatches(rule, path))
    : paths.some((path) => pathMatches(rule, path));
}

function criteriaMatch(rule: PermissionRule, request: JudgedRequest): boolean {
  if (rule.tool !== undefined && !toolGlobTest(rule.tool)(request.toolName)) return false;
  if (rule.capability !== undefined && !request.security.capabilities.includes(rule.capability)) return false;
  if (rule.commandPrefix !== undefined) {
    const command = request.facts.command;
    if (
      command === undefined ||
      !commandPrefixMatches(command.commands, rule.commandPrefix, rule.action, rule.exactCommand)
    )
      return false;
  }
  if (rule.domains !== undefined && !domainsMatch(rule, request.facts)) return false;
  return true;
}

function ruleMatches(rule: PermissionRule, request: JudgedRequest): boolean {
  if (!criteriaMatch(rule, request)) return false;
  return rule.paths === undefined || pathsMatch(rule, request.facts.paths);
}

/**
 * The globs a call that reads a whole scope (search, glob) must leave out: the paths of every
 * deny or ask rule that applies to the call by tool, capability and command, and in every mode
 * but `full-auto` the secret files (unless a configured allow rule with paths applies). A scope that lies
 * inside such a path is decided by {@link decidePermission} instead (the rule matches).
 */
export function excludedPaths(
  rules: readonly PermissionRule[],
  request: PermissionRequest,
  mode?: PermissionMode,
): string[] {
  const judged: JudgedRequest = { toolName: request.toolName, security: request.security, facts: factsOf(request) };
  if (!judged.facts.paths.some((path) => path.role === 'scope')) return [];
  const globs = new Set<string>();
  const secret = mode ? secretFileRule(mode) : undefined;
  // Secret files are left out unless a configured rule allows them.
  const secretAllowed = rules.some(
    (rule) => rule.action === 'allow' && rule.paths !== undefined && criteriaMatch(rule, judged),
  );
  for (const rule of [...rules, ...(secret && !secretAllowed ? [secret] : [])]) {
    if (rule.action === 'allow' || rule.paths === undefined || !criteriaMatch(rule, judged)) continue;
    for (const glob of rule.paths) globs.add(glob);
  }
  return [...globs];
}

function describeRule(rule: PermissionRule): string {
  const criteria = [
    rule.tool !== undefined ? `tool ${rule.tool}` : undefined,
    rule.capability !== undefined ? `capability ${rule.capability}` : undefined,
    rule.paths !== undefined ? `paths ${rule.paths.join(', ')}` : undefined,
    rule.domains !== undefined ? `domains ${rule.domains.join(', ')}` : undefined,
    rule.commandPrefix !== undefined
      ? `command ${rule.exactCommand ? '' : 'prefix '}"${rule.commandPrefix}"`
      : undefined,
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
  const judged: JudgedRequest = { toolName: request.toolName, security: request.security, facts: factsOf(request) };
  let strongest: PermissionRule | undefined;
  for (const rule of rules) {
    if (!ruleMatches(rule, judged)) continue;
    if (!strongest || ACTION_STRENGTH[rule.action] > ACTION_STRENGTH[strongest.action]) strongest = rule;
  }
  if (strongest) return { action: strongest.action, reason: describeRule(strongest) };
  // Secret files: a configured rule decides first; otherwise the built-in rule of the mode.
  const secret = secretFileRule(mode);
  if (secret && ruleMatches(secret, judged) && ACTION_STRENGTH[secret.action] > ACTION_STRENGTH[byMode.action])
    return { action: secret.action, reason: describeRule(secret) };
  return byMode;
}

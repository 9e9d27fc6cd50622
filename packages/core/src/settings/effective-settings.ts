import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandSandboxOptions } from '@clawsmith/command-sandbox';
import type { ToolHook, ToolResultHook } from '@clawsmith/tool-host';
import type { PermissionAction, PermissionRule } from '@clawsmith/tool-host';
import type { TurnHooks } from '../turn-hooks.js';
import { commandResultHook, commandToolHook, type CommandHookSpec } from './command-hook.js';
import { commandTurnHooks } from './command-turn-hooks.js';
import { SettingsError } from './settings-error.js';
import { parseSettingsRule, SettingsRuleError } from './settings-rules.js';
import { settingsFileSchema, SETTINGS_HOOK_EVENTS, type SettingsFile } from './settings-schema.js';
import { SettingsTrustStore, settingsSha256 } from './settings-trust.js';

/** Where settings are read from, in the order they are merged. */
export interface SettingsInputs {
  /** The clawsmith home: `<home>/settings.json` and the trust record. */
  readonly homeDir: string;
  /** The workspace's real path: `.clawsmith/settings.json` and `.clawsmith/settings.local.json`. */
  readonly workspaceRoot: string;
  /** `--settings FILE`, in order (the person's own: trusted). */
  readonly settingsFiles?: readonly string[];
  /** `--allow` rules: calls they match run without asking (a matching `ask` or `deny` still wins). */
  readonly allow?: readonly string[];
  /** `--ask` rules: calls they match wait for the person's answer (a matching `deny` still wins). */
  readonly ask?: readonly string[];
  /** `--deny` rules: calls they match are refused, whatever else matches. */
  readonly deny?: readonly string[];
  /**
   * Default true. False for an entry that serves sessions of many workspaces (`web`): only the
   * user's file, `--settings` and the flags apply.
   */
  readonly readProjectFiles?: boolean;
  /**
   * The command sandbox hook commands run in (as `run_command`'s options); default `{ sandbox:
   * 'auto' }`. Where no sandbox can be had, a hook fails closed (its call is denied).
   */
  readonly commandSandbox?: CommandSandboxOptions;
}

/** One entry of the effective settings and where it came from. */
export interface SettingsEntry {
  /** A permission rule's action (`allow`, `ask`, `deny`), or `hook`. */
  readonly kind: PermissionAction | 'hook';
  /** The rule text, or `Event[matcher]: command` for a hook. */
  readonly text: string;
  /** The file, or `--allow`/`--ask`/`--deny`. */
  readonly source: string;
  /** False for an untrusted project file's allow rules and hooks. */
  readonly applied: boolean;
}

/** The merged settings of a workspace, ready for core. */
export interface EffectiveSettings {
  /** The permission rules of every applied file and flag, for core's `rules`. */
  readonly rules: readonly PermissionRule[];
  /** The `PreToolUse` hooks, asked before each call, for core's `hooks`. */
  readonly hooks: readonly ToolHook[];
  /** The `PostToolUse` hooks, run after each call, for core's `resultHooks`. */
  readonly resultHooks: readonly ToolResultHook[];
  /** The hooks of every event but `PreToolUse` and `PostToolUse`, for core's `turnHooks`. */
  readonly turnHooks: TurnHooks;
  /** Every rule and hook read, applied or waiting for trust, with its source (`clawsmith settings`). */
  readonly entries: readonly SettingsEntry[];
  /** What the person should be told once (an untrusted or changed project file). */
  readonly notices: readonly string[];
  /** Project files whose allow rules and hooks wait for trust. */
  readonly untrustedFiles: readonly string[];
  /** Whether hook commands run in the command sandbox, and which file turned it off when not. */
  readonly hookSandbox: { readonly on: true } | { readonly on: false; readonly source: string };
}

/** The project's settings files (repository content, inert until trusted), in merge order. */
export function projectSettingsFiles(workspaceRoot: string): string[] {
  return [join(workspaceRoot, '.clawsmith', 'settings.json'), join(workspaceRoot, '.clawsmith', 'settings.local.json')];
}

function jsonPath(path: readonly PropertyKey[]): string {
  return path.length === 0
    ? '(the top level)'
    : path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        .join('')
        .replace(/^\./, '');
}

/** Reads and validates one settings file; throws {@link SettingsError} naming the file, the JSON path and what to write. */
export function readSettingsFile(file: string): { settings: SettingsFile; sha256: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsError(
      file,
      `The settings file ${file} cannot be read (${(error as Error).message}); fix its permissions or remove it.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(
      file,
      `The settings file ${file} is not valid JSON (${(error as Error).message}); write a JSON object such as {"permissions": {"allow": ["Bash(npm test:*)"]}}.`,
    );
  }
  const parsed = settingsFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = jsonPath(issue.path);
    const unknownKeys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    const hint =
      issue.code === 'unrecognized_keys' && issue.path.length === 1 && issue.path[0] === 'hooks'
        ? `clawsmith runs the hook events ${SETTINGS_HOOK_EVENTS.join(', ')}; remove the others`
        : 'write it as the settings reference in the cli README shows: "permissions" with "allow", "ask" and "deny" lists of rules, "hooks" keyed by event with "matcher" and "hooks": [{"type": "command", "command": "..."}]';
    throw new SettingsError(
      file,
      `The settings file ${file} is invalid at ${where}: ${issue.message}${unknownKeys}; ${hint}.`,
    );
  }
  return { settings: parsed.data, sha256: settingsSha256(text) };
}

/**
 * The effective settings of a workspace, merged in this order: the user's `<home>/settings.json`,
 * the project's `.clawsmith/settings.json`, the local `.clawsmith/settings.local.json`, each
 * `--settings FILE`, then `--allow`/`--ask`/`--deny`. Rules add up (deny beats ask beats allow
 * whatever their order); hooks add up in that order. Project files are repository content: until
 * the person trusts their exact content (`clawsmith config trust`), only their `deny` and `ask`
 * rules apply. Throws {@link SettingsError} for any invalid file or rule: nothing is ignored silently.
 */
export function effectiveSettings(inputs: SettingsInputs): EffectiveSettings {
  const trust = new SettingsTrustStore(inputs.homeDir);
  const rules: PermissionRule[] = [];
  const hooks: ToolHook[] = [];
  const resultHooks: ToolResultHook[] = [];
  const entries: SettingsEntry[] = [];
  const notices: string[] = [];
  const untrustedFiles: string[] = [];
  const hookSpecs: Omit<CommandHookSpec, 'sandbox'>[] = [];
  let sandboxOffBy: string | undefined;

  const addRule = (text: string, action: PermissionAction, source: string, applied: boolean) => {
    let parsed: PermissionRule[];
    try {
      parsed = parseSettingsRule(text, action, inputs.workspaceRoot, source);
    } catch (error) {
      if (error instanceof SettingsRuleError)
        throw new SettingsError(
          source,
          `The rule ${JSON.stringify(text)} in ${source} (permissions.${action}) cannot be used: ${error.message}.`,
        );
      throw error;
    }
    entries.push({ kind: action, text, source, applied });
    if (applied) rules.push(...parsed);
  };

  // A project file is read once: the content judged for trust is the content applied.
  // `own`: the person's own file (user settings, --settings), the only kind that may turn the hook sandbox off.
  const addFile = (
    file: string,
    trusted: boolean,
    own: boolean,
    settings: SettingsFile = readSettingsFile(file).settings,
  ) => {
    if (settings.sandboxHooks === false) {
      if (own) sandboxOffBy = file;
      else
        notices.push(
          `${file} sets "sandboxHooks": false, which only your own settings (${join(inputs.homeDir, 'settings.json')} or --settings) can do; hooks stay in the sandbox.`,
        );
    }
    for (const action of ['deny', 'ask', 'allow'] as const)
      for (const text of settings.permissions?.[action] ?? [])
        addRule(text, action, file, trusted || action !== 'allow');
    for (const event of SETTINGS_HOOK_EVENTS) {
      for (const group of settings.hooks?.[event] ?? []) {
        for (const handler of group.hooks) {
          entries.push({
            kind: 'hook',
            text: `${event}[${group.matcher ?? '*'}]: ${handler.command}`,
            source: file,
            applied: trusted,
          });
          if (!trusted) continue;
          hookSpecs.push({
            event,
            matcher: group.matcher,
            command: handler.command,
            source: file,
            cwd: inputs.workspaceRoot,
            ...(handler.timeout ? { timeout: handler.timeout } : {}),
          });
        }
      }
    }
  };

  const userFile = join(inputs.homeDir, 'settings.json');
  if (existsSync(userFile)) addFile(userFile, true, true);
  for (const file of inputs.readProjectFiles === false ? [] : projectSettingsFiles(inputs.workspaceRoot)) {
    if (!existsSync(file)) continue;
    const { sha256, settings } = readSettingsFile(file);
    const state = trust.stateOf(inputs.workspaceRoot, file, sha256);
    const trusted = state === 'trusted';
    if (!trusted) {
      const inert =
        (settings.permissions?.allow?.length ?? 0) > 0 ||
        Object.values(settings.hooks ?? {}).some((groups) => (groups?.length ?? 0) > 0);
      if (inert) {
        untrustedFiles.push(file);
        notices.push(
          `${file} is ${state === 'changed' ? 'changed since you trusted it' : 'not trusted'}: its deny and ask rules apply, its allow rules and hooks do not. Review it, then run 'clawsmith config trust' in this workspace.`,
        );
      }
    }
    addFile(file, trusted, false, settings);
  }
  for (const file of inputs.settingsFiles ?? []) addFile(resolve(file), true, true);
  for (const action of ['deny', 'ask', 'allow'] as const)
    for (const text of inputs[action] ?? []) addRule(text, action, `--${action}`, true);
  const sandbox = sandboxOffBy !== undefined ? 'off' : (inputs.commandSandbox ?? { sandbox: 'auto' });
  for (const spec of hookSpecs) {
    if (spec.event === 'PreToolUse') hooks.push(commandToolHook({ ...spec, sandbox }));
    else if (spec.event === 'PostToolUse') resultHooks.push(commandResultHook({ ...spec, sandbox }));
  }
  const turnHooks = commandTurnHooks(
    hookSpecs
      .filter((spec) => spec.event !== 'PreToolUse' && spec.event !== 'PostToolUse')
      .map((spec) => ({ ...spec, sandbox })),
  );
  const hookSandbox = sandboxOffBy !== undefined ? { on: false as const, source: sandboxOffBy } : { on: true as const };
  return { rules, hooks, resultHooks, turnHooks, entries, notices, untrustedFiles, hookSandbox };
}

/** Trusts the current content of the workspace's project settings files; returns the files trusted. */
export function trustProjectSettings(homeDir: string, workspaceRoot: string): string[] {
  const trust = new SettingsTrustStore(homeDir);
  const trusted: string[] = [];
  for (const file of projectSettingsFiles(workspaceRoot)) {
    if (!existsSync(file)) continue;
    const { sha256 } = readSettingsFile(file);
    trust.trust(workspaceRoot, file, sha256);
    trusted.push(file);
  }
  return trusted;
}

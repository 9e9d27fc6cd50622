import { simpleCommandsIn, type FoundSimpleCommand } from '@clawsmith/command-sandbox';
import type { ToolPathArgument } from '@clawsmith/tool-protocol';
import { requestPaths, type RequestPath } from './request-paths.js';

/**
 * The command text a call runs (its `command` input), parsed once: `commands` is each simple
 * command it runs, or `undefined` when the text is not valid bash (deny and ask rules match it,
 * allow rules never do).
 */
export interface CallCommand {
  readonly text: string;
  readonly commands: readonly FoundSimpleCommand[] | undefined;
}

/**
 * The URL a call fetches (its `url` input): `host` is its lower-case host name, or `undefined`
 * when the value is not a readable http(s) URL (deny and ask rules with domains match it, allow
 * rules never do).
 */
export interface CallUrl {
  readonly host: string | undefined;
}

/**
 * What one call touches, resolved once from the input it runs with and carried through hooks,
 * rules, modes and the decision event: the paths as the tool resolves them, the simple commands
 * of its command text and the host of its URL.
 */
export interface CallFacts {
  readonly paths: readonly RequestPath[];
  /** Absent when the input has no `command` text. */
  readonly command?: CallCommand;
  /** Absent when the input has no `url` field. */
  readonly url?: CallUrl;
}

function fieldsOf(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}

function hostOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.hostname === '' ? undefined : url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Resolves what a call touches: paths through `pathArguments` (the input's `path`, `from`, `to`,
 * `source`, `target` and `destination` when the tool declares none) against `workspaceRoot` when
 * given, the simple commands of a `command` text, and the host of a `url`.
 */
export function resolveCallFacts(
  pathArguments: readonly ToolPathArgument[] | undefined,
  input: unknown,
  workspaceRoot?: string,
): CallFacts {
  const fields = fieldsOf(input);
  const command = fields.command;
  return {
    paths: requestPaths(pathArguments, input, workspaceRoot),
    ...(typeof command === 'string' ? { command: { text: command, commands: simpleCommandsIn(command) } } : {}),
    ...('url' in fields ? { url: { host: hostOf(fields.url) } } : {}),
  };
}

/** The facts as the decision event records them: resolved paths, each simple command's words, the URL's host. */
export function judgedFacts(facts: CallFacts): {
  paths?: string[];
  commands?: string[];
  domains?: string[];
} {
  const paths = [...new Set(facts.paths.map((path) => path.forms.at(-1) ?? ''))];
  const commands = facts.command
    ? facts.command.commands === undefined
      ? ['(not valid bash)']
      : facts.command.commands.map((found) => found.words.map((word) => word ?? '?').join(' '))
    : [];
  const domains = facts.url ? [facts.url.host ?? '(unreadable URL)'] : [];
  return {
    ...(paths.length > 0 ? { paths } : {}),
    ...(commands.length > 0 ? { commands } : {}),
    ...(domains.length > 0 ? { domains } : {}),
  };
}

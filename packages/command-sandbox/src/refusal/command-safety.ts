import { posix } from 'node:path';
import { defaultHomes, resolveTargetPath, type TargetContext } from './catastrophic-targets.js';
import {
  checkRedirectTarget,
  checkSimpleCommand,
  dangerousOperand,
  type CommandSafetyRule,
  type RuleMatch,
} from './command-rules.js';
import { wrappedCommands } from './command-wrappers.js';
import {
  BINARY_OPERATORS,
  listOf,
  literalValue,
  nodeType,
  parseShell,
  REDIRECT_OPERATORS,
  ShellSyntaxError,
  walkShell,
  type ShellNode,
} from '../shell/shell-syntax.js';
import { printedCall, staticWordText, wordFields, type Field, type WordScope } from '../shell/word-fields.js';
import {
  arrayVariants,
  assignmentArrayChange,
  callArrayChanges,
  resolveArrays,
  runTimeArrays,
  runsRunTimeArray,
  type ArrayChange,
  type ArrayValue,
} from '../shell/shell-arrays.js';

/** The verdict of {@link evaluateCommandSafety}. */
export type CommandSafetyVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly rule: CommandSafetyRule; readonly reason: string };

/** Options of {@link evaluateCommandSafety}. */
export interface CommandSafetyOptions {
  /** Absolute folder the command runs in, to resolve `../..`; default `/`-relative checks only. */
  readonly workingDirectory?: string;
  /** Home folders to protect; default this process's home and `$HOME`. */
  readonly homes?: readonly string[];
  /** The workspace root: `rm -rf .` there (or `rm -rf *`) is refused like a system folder. */
  readonly workspaceRoot?: string;
}

const MAX_DEPTH = 6;
const MAX_COMMANDS = 2_000;
const PIPES = new Set<number>([BINARY_OPERATORS.pipe, BINARY_OPERATORS.pipeAll]);
const OUTPUT_REDIRECTS = new Set<number>([
  REDIRECT_OPERATORS.output,
  REDIRECT_OPERATORS.append,
  REDIRECT_OPERATORS.readWrite,
  REDIRECT_OPERATORS.duplicateOutput,
  REDIRECT_OPERATORS.clobber,
  REDIRECT_OPERATORS.outputAll,
  REDIRECT_OPERATORS.appendAll,
]);

interface Collected {
  readonly calls: Array<{ readonly call: ShellNode; readonly statement: ShellNode }>;
  readonly redirects: ShellNode[];
  readonly variables: Map<string, string[] | null>;
  /** Array assignments, `set --` and the commands that fill arrays, in script order. */
  readonly arrayChanges: ArrayChange[];
  /** Pipe producers by the source span of their consumer (mvdan-sh gives no stable node identity). */
  readonly producers: Map<string, ShellNode>;
  /** Names of functions the script defines, and aliases with their static values. */
  readonly names: ScriptNames;
  /** Variables expanded with the `@P` transformation (prompt expansion runs their substitutions). */
  readonly promptExpansions: string[];
  forkBomb?: string;
}

/** What a script defines that changes what a command name runs. */
interface ScriptNames {
  readonly functions: Set<string>;
  readonly aliases: Map<string, string>;
}

/** Operator of `${x@op}` transformations in mvdan-sh; the letter is the expansion's word. */
const TRANSFORM_OPERATOR = 84;

function commandName(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

function staticName(word: unknown): string | undefined {
  const parts = listOf((word as ShellNode | undefined)?.Parts);
  if (parts.length !== 1) return undefined;
  const value = literalValue(parts[0]);
  return value === undefined ? undefined : commandName(value.replace(/\\/g, ''));
}

function span(node: ShellNode): string {
  const located = node as unknown as { Pos(): { Offset(): number }; End(): { Offset(): number } };
  return `${located.Pos().Offset()}:${located.End().Offset()}`;
}

function callOf(statement: unknown): ShellNode | undefined {
  const command = (statement as ShellNode | undefined)?.Cmd as ShellNode | undefined;
  if (nodeType(command) === 'CallExpr') return command;
  if (nodeType(command) === 'BinaryCmd' && Number(command?.Op) === BINARY_OPERATORS.pipe) return callOf(command?.Y);
  return undefined;
}

function isForkBomb(declaration: ShellNode): boolean {
  const name = String((declaration.Name as ShellNode | undefined)?.Value ?? '');
  let selfCalls = 0;
  let spawning = false;
  walkShell(declaration.Body, (node) => {
    const type = nodeType(node);
    if (type === 'CallExpr' && staticName(listOf(node.Args)[0]) === name) selfCalls += 1;
    if (type === 'Stmt' && node.Background && callOf(node) && staticName(listOf(callOf(node)?.Args)[0]) === name)
      spawning = true;
    if (type === 'BinaryCmd' && PIPES.has(Number(node.Op))) {
      if ([node.X, node.Y].some((side) => staticName(listOf(callOf(side)?.Args)[0]) === name)) spawning = true;
    }
  });
  return name !== '' && (selfCalls >= 2 || spawning);
}

function remember(variables: Map<string, string[] | null>, name: string, value: string | undefined): void {
  const known = variables.get(name);
  if (value === undefined || known === null) variables.set(name, null);
  else variables.set(name, [...new Set([...(known ?? []), value])]);
}

function collect(file: ShellNode): Collected {
  const collected: Collected = {
    calls: [],
    redirects: [],
    variables: new Map(),
    arrayChanges: [],
    producers: new Map(),
    names: { functions: new Set(), aliases: new Map() },
    promptExpansions: [],
  };
  const literalScope: WordScope = { variables: new Map() };
  // Words are resolved only after the walk: resolving splits braces in place, which Walk rejects.
  const assignments: Array<readonly [string, ShellNode | undefined]> = [];
  walkShell(file, (node) => {
    switch (nodeType(node)) {
      case 'Stmt':
        if (nodeType(node.Cmd) === 'CallExpr') {
          collected.calls.push({ call: node.Cmd as ShellNode, statement: node });
          collected.arrayChanges.push(...callArrayChanges(listOf((node.Cmd as ShellNode).Args)));
        }
        break;
      case 'Redirect':
        collected.redirects.push(node);
        break;
      case 'Assign': {
        if (node.Name) assignments.push([String((node.Name as ShellNode).Value), node.Value as ShellNode | undefined]);
        const change = assignmentArrayChange(node);
        if (change) collected.arrayChanges.push(change);
        break;
      }
      case 'WordIter':
        for (const item of listOf(node.Items)) assignments.push([String((node.Name as ShellNode).Value), item]);
        break;
      case 'FuncDecl':
        if (isForkBomb(node)) collected.forkBomb = String((node.Name as ShellNode).Value);
        collected.names.functions.add(String((node.Name as ShellNode).Value));
        break;
      case 'ParamExp': {
        const expansion = node.Exp as ShellNode | undefined;
        // Only @P executes (prompt expansion runs $(...) and `...` in the value); @E, @A, @K, @Q do not.
        if (
          expansion &&
          Number(expansion.Op) === TRANSFORM_OPERATOR &&
          listOf((expansion.Word as ShellNode | undefined)?.Parts)
            .map(literalValue)
            .join('') === 'P'
        )
          collected.promptExpansions.push(String((node.Param as ShellNode | undefined)?.Value ?? ''));
        break;
      }
      case 'BinaryCmd':
        if (PIPES.has(Number(node.Op))) {
          const consumer = callOf(node.Y);
          const producer = callOf(node.X);
          if (consumer && producer) collected.producers.set(span(consumer), producer);
        }
        break;
    }
  });
  for (const [name, value] of assignments)
    remember(collected.variables, name, value ? staticWordText(value, literalScope) : '');
  for (const { call } of collected.calls) {
    const [head, ...args] = listOf(call.Args);
    if (staticName(head) !== 'alias') continue;
    for (const word of args) {
      const text = staticWordText(word, literalScope);
      const equals = text?.indexOf('=') ?? -1;
      if (text && equals > 0) collected.names.aliases.set(text.slice(0, equals), text.slice(equals + 1));
    }
  }
  return collected;
}

function knownVariables(collected: Collected): WordScope {
  const variables = new Map<string, readonly string[]>();
  for (const [name, values] of collected.variables) if (values) variables.set(name, values);
  const arrays = new Map<string, readonly ArrayValue[]>();
  for (const [name, values] of resolveArrays(collected.arrayChanges, { variables: new Map() }))
    if (values) arrays.set(name, values);
  return { variables, arrays };
}

function stdinOf(entry: Collected['calls'][number], collected: Collected, scope: WordScope): string | undefined {
  for (const redirect of listOf(entry.statement.Redirs)) {
    const operator = Number(redirect.Op);
    if (operator === REDIRECT_OPERATORS.hereString) return staticWordText(redirect.Word as ShellNode, scope);
    if (operator === REDIRECT_OPERATORS.heredoc || operator === REDIRECT_OPERATORS.heredocTabs) {
      return listOf((redirect.Hdoc as ShellNode | undefined)?.Parts)
        .map((part) => literalValue(part) ?? '')
        .join('');
    }
  }
  const producer = collected.producers.get(span(entry.call));
  if (!producer) return undefined;
  const fields = listOf(producer.Args).flatMap((word) => wordFields(word, scope));
  const name = commandName(fields[0]?.text ?? '');
  if (name !== 'echo' && name !== 'printf') return undefined;
  return fields
    .slice(1)
    .filter((item) => !/^-[neE]+$/.test(item.text))
    .map((item) => item.text.replace(/\\n/g, '\n'))
    .join(' ');
}

function evaluateFields(
  fields: readonly Field[],
  stdin: string | undefined,
  depth: number,
  context: TargetContext,
  names: ScriptNames = NO_NAMES,
): RuleMatch | undefined {
  const head = fields[0];
  if (!head) return undefined;
  if (head.dynamic || /[*?[]/.test(head.text)) {
    const danger = dangerousOperand(fields.slice(1), context);
    if (danger)
      return {
        rule: 'unresolved_command',
        reason: `a command whose name is only known when it runs would act on ${danger}`,
      };
    // `$cmd sudo reboot`, `${X:-sudo} reboot`: the words after an unknown name may be a command.
    const shifted = evaluateFields(fields.slice(1), stdin, depth, context, names);
    if (shifted) return shifted;
    // A default value (`${X:-sudo}`) is what runs when the variable is unset: judge it as the name.
    if (head.text === '' || !head.dynamic) return undefined;
  }
  const name = commandName(head.text);
  const args = fields.slice(1);
  const alias = names.aliases.get(head.text);
  if (alias !== undefined && depth < MAX_DEPTH) {
    const aliasMatch = evaluateScript(`${alias} ${args.map((field) => field.text).join(' ')}`, depth + 1, context);
    if (aliasMatch) return aliasMatch;
  }
  // A function may run its arguments (`f(){ "$@"; }; f sudo reboot`): judge them as a command.
  if (names.functions.has(head.text)) {
    const inner = evaluateFields(args, stdin, depth, context, names);
    if (inner) return inner;
  }
  const match = checkSimpleCommand(name, args, context);
  if (match) return match;
  for (const inner of wrappedCommands(name, args, stdin)) {
    const innerMatch =
      inner.kind === 'script'
        ? evaluateScript(inner.text, depth + 1, context)
        : evaluateFields(inner.fields, stdin, depth + 1, context, names);
    if (innerMatch) return innerMatch;
  }
  return undefined;
}

const NO_NAMES: ScriptNames = { functions: new Set(), aliases: new Map() };
const SCRIPT_RUNNERS = new Set(['eval', 'source', '.', 'sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);

/**
 * Whether the script hands text it builds at run time to a shell: `eval "$(...)"`,
 * `bash -c "$(...)"`, `source <(...)`, `... | base64 -d | sh`.
 */
function runsBuiltScript(collected: Collected, scope: WordScope): boolean {
  if (
    runsRunTimeArray(
      collected.calls.map(({ call }) => call),
      collected.arrayChanges,
    )
  )
    return true;
  return collected.calls.some((entry) => {
    const fields = listOf(entry.call.Args).flatMap((word) => wordFields(word, scope));
    const name = commandName(fields[0]?.text ?? '');
    if (!SCRIPT_RUNNERS.has(name)) return false;
    if (fields.slice(1).some((field) => field.dynamic)) return true;
    const producer = collected.producers.get(span(entry.call));
    return producer !== undefined && stdinOf(entry, collected, scope) === undefined;
  });
}

/** Texts the script prints from literals (echo, printf, and base64 decoding of them): what a built script is made of. */
function printedTexts(collected: Collected, scope: WordScope): string[] {
  const texts: string[] = [];
  const decodes = collected.calls.some((entry) => staticName(listOf(entry.call.Args)[0]) === 'base64');
  const filled = runTimeArrays(collected.arrayChanges);
  for (const entry of collected.calls) {
    const fields = listOf(entry.call.Args).flatMap((word) => wordFields(word, scope));
    // What `read -a a <<< "…"` or `mapfile a <<EOF` reads is the text an array-named command runs.
    const fills = callArrayChanges(listOf(entry.call.Args)).some((change) => filled.has(change.name));
    const input = fills ? stdinOf(entry, collected, scope) : undefined;
    if (input !== undefined) texts.push(input);
    const printed = printedCall(fields);
    if (printed === undefined) continue;
    texts.push(printed);
    if (decodes && /^[A-Za-z0-9+/=\s]{4,}$/.test(printed)) texts.push(Buffer.from(printed, 'base64').toString('utf8'));
  }
  return texts;
}

function evaluateScript(text: string, depth: number, context: TargetContext): RuleMatch | undefined {
  if (depth > MAX_DEPTH)
    return {
      rule: 'nesting_too_deep',
      reason: `commands nested more than ${MAX_DEPTH} levels deep (sh -c inside sh -c...) cannot be checked`,
    };
  let file: ShellNode;
  try {
    file = parseShell(text);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return {
      rule: 'unparseable_command',
      reason: `the command is not valid shell syntax (${error.message}); fix the quoting`,
    };
  }
  const collected = collect(file);
  if (collected.forkBomb)
    return {
      rule: 'fork_bomb',
      reason: `the function ${collected.forkBomb} calls itself in the background or through a pipe: a fork bomb`,
    };
  if (collected.calls.length > MAX_COMMANDS)
    return { rule: 'nesting_too_deep', reason: `more than ${MAX_COMMANDS} commands in one call cannot be checked` };
  const scope = knownVariables(collected);
  const changedDirectories = [...(context.changedDirectories ?? [])];
  for (const entry of collected.calls) {
    const words = listOf(entry.call.Args);
    if (!['cd', 'pushd'].includes(staticName(words[0]) ?? '')) continue;
    const targets = words[1] ? wordFields(words[1], scope) : [{ text: '~', dynamic: false }];
    for (const target of targets) {
      const directory =
        target.text === ''
          ? context.homes[0]
          : (resolveTargetPath(target.text, context) ?? posix.join(context.workingDirectory, target.text));
      if (directory) changedDirectories.push(directory);
    }
  }
  if (changedDirectories.length > 0) context = { ...context, changedDirectories };
  for (const redirect of collected.redirects) {
    if (!OUTPUT_REDIRECTS.has(Number(redirect.Op)) || !redirect.Word) continue;
    for (const target of wordFields(redirect.Word as ShellNode, scope)) {
      const match = checkRedirectTarget(target);
      if (match) return match;
    }
  }
  for (const entry of collected.calls) {
    for (const variant of arrayVariants(scope)) {
      const fields = listOf(entry.call.Args).flatMap((word) => wordFields(word, variant));
      const match = evaluateFields(fields, stdinOf(entry, collected, scope), depth, context, collected.names);
      if (match) return match;
    }
  }
  // Checked after the calls, so a payload that is itself a call reports its own rule.
  for (const name of collected.promptExpansions) {
    const values = collected.variables.get(name);
    if (!values)
      return {
        rule: 'unresolved_command',
        reason: `\${${name}@P} runs the command substitutions in a value that is only known when it runs (prompt expansion)`,
      };
    for (const value of values) {
      const inner = evaluateScript(`: "${value.replace(/["\\]/g, '\\$&')}"`, depth + 1, context);
      if (inner) return inner;
    }
  }
  if (runsBuiltScript(collected, scope)) {
    for (const text of printedTexts(collected, scope)) {
      const inner = depth < MAX_DEPTH ? evaluateScript(text, depth + 1, context) : undefined;
      if (inner && inner.rule !== 'unparseable_command')
        return { rule: inner.rule, reason: `a script built when the command runs would do this: ${inner.reason}` };
    }
  }
  return undefined;
}

/**
 * Decides on a real bash parse whether `commandText` is one of the catastrophic commands that no
 * approval unlocks: privilege escalation, formatting disks, writing block devices, recursive
 * delete or re-permission of `/`, system folders or the home folder, power state changes,
 * killing init, SysRq, fork bombs. It looks through operators, substitutions, `sh -c` strings,
 * `eval`, wrappers such as `env`, `timeout`, `xargs` and `find -exec`, and quoting tricks.
 * It is a speed bump that catches the obvious; the sandbox is the wall.
 */
export function evaluateCommandSafety(commandText: string, options: CommandSafetyOptions = {}): CommandSafetyVerdict {
  const context: TargetContext = {
    workingDirectory: options.workingDirectory ?? '/',
    homes: options.homes ?? defaultHomes(),
    // `rm -rf .` and `rm -rf *` are judged in the folder they run in, when it is known.
    ...(options.workingDirectory ? { changedDirectories: [options.workingDirectory] } : {}),
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
  };
  const match = evaluateScript(commandText, 0, context);
  return match ? { allowed: false, rule: match.rule, reason: match.reason } : { allowed: true };
}

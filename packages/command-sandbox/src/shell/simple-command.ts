import { listOf, nodeType, parseShell, ShellSyntaxError, walkShell, type ShellNode } from './shell-syntax.js';
import { decodeAnsiC } from './word-fields.js';

const UNQUOTED_EXPANSION = /[*?[{~]/;

function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function partText(part: ShellNode, quoted: boolean): string | undefined {
  switch (nodeType(part)) {
    case 'Lit': {
      const value = String(part.Value ?? '');
      if (quoted) return value.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
      // A glob, brace or tilde changes the words when the command runs: not one fixed word.
      if (UNQUOTED_EXPANSION.test(value.replace(/\\./gs, ''))) return undefined;
      return unescapeUnquoted(value);
    }
    case 'SglQuoted':
      return part.Dollar ? decodeAnsiC(String(part.Value ?? '')) : String(part.Value ?? '');
    case 'DblQuoted': {
      let text = '';
      for (const inner of listOf(part.Parts)) {
        const value = partText(inner, true);
        if (value === undefined) return undefined;
        text += value;
      }
      return text;
    }
    default:
      // Parameter, command, arithmetic and process expansion: only known when it runs.
      return undefined;
  }
}

function wordText(word: ShellNode): string | undefined {
  let text = '';
  for (const part of listOf(word.Parts)) {
    const value = partText(part, false);
    if (value === undefined) return undefined;
    text += value;
  }
  return text;
}

/**
 * The words of `text` when the whole text is exactly one simple command whose words are all
 * fixed: no `;`, `&&`, `||`, `|`, `&`, newline-separated commands, subshells, groups, function
 * definitions, substitutions, variable or arithmetic expansions, globs, braces, tildes,
 * redirections or leading `NAME=value` assignments. Quotes are removed (`'npm' "test"` is
 * `npm`, `test`). Undefined otherwise, including text that is not valid bash. Parsed with the same
 * parser as the catastrophic-command refusal.
 */
export function simpleCommandWords(text: string): string[] | undefined {
  let file: ShellNode;
  try {
    file = parseShell(text);
  } catch (error) {
    if (error instanceof ShellSyntaxError) return undefined;
    throw error;
  }
  const statements = listOf(file.Stmts);
  if (statements.length !== 1) return undefined;
  const statement = statements[0] as ShellNode;
  if (statement.Background || statement.Coprocess || statement.Negated) return undefined;
  if (listOf(statement.Redirs).length > 0) return undefined;
  const call = statement.Cmd as ShellNode | undefined;
  if (nodeType(call) !== 'CallExpr' || !call) return undefined;
  if (listOf(call.Assigns).length > 0) return undefined;
  const words: string[] = [];
  for (const word of listOf(call.Args)) {
    const value = wordText(word);
    if (value === undefined) return undefined;
    words.push(value);
  }
  return words.length > 0 ? words : undefined;
}

/**
 * Whether `command` is one simple command (see {@link simpleCommandWords}) whose words start
 * with the words of `prefix`: `npm test -- --watch=false` starts with `npm test`;
 * `npm test && rm -rf src`, `npm testx` and `npm test; curl x | sh` do not.
 */
export function commandStartsWith(command: string, prefix: string): boolean {
  const prefixWords = simpleCommandWords(prefix);
  const words = simpleCommandWords(command);
  if (!prefixWords || !words || words.length < prefixWords.length) return false;
  return prefixWords.every((word, index) => words[index] === word);
}

// Statements that only hold other statements, each of which is listed on its own.
const CONTAINERS = new Set([
  'BinaryCmd',
  'Subshell',
  'Block',
  'IfClause',
  'WhileClause',
  'ForClause',
  'CaseClause',
  'FuncDecl',
  '',
]);

/** One simple command found in a command text, as permission rules judge it. */
export interface FoundSimpleCommand {
  /** Its words in order; `undefined` for a word only known when it runs (a substitution, a glob). */
  readonly words: readonly (string | undefined)[];
  /**
   * True when every word is fixed and the command has no redirection, leading assignment or
   * background `&`: what an allow rule may match.
   */
  readonly plain: boolean;
}

/**
 * Every simple command in `text`, wherever it sits: each side of `;`, `&&`, `||`, `|` and
 * newlines, inside subshells, groups, loops, function bodies and command substitutions
 * (`npm test $(rm x)` holds `npm test $(rm x)`, not plain, and `rm x`). Undefined when the text is
 * not valid bash. Parsed with the same parser as the catastrophic-command refusal.
 */
export function simpleCommandsIn(text: string): FoundSimpleCommand[] | undefined {
  let file: ShellNode;
  try {
    file = parseShell(text);
  } catch (error) {
    if (error instanceof ShellSyntaxError) return undefined;
    throw error;
  }
  // Every simple command is the `Cmd` of a statement, which holds its redirections and `&`.
  const statements: ShellNode[] = [];
  walkShell(file, (node) => {
    if (nodeType(node) === 'Stmt') statements.push(node);
  });
  const found: FoundSimpleCommand[] = [];
  for (const statement of statements) {
    const type = nodeType(statement.Cmd);
    if (CONTAINERS.has(type)) continue;
    // `export PATH=…`, `declare`, `let`, `[[ ]]`, `(( ))`, `time`: not a command a rule can name.
    if (type !== 'CallExpr') {
      found.push({ words: [undefined], plain: false });
      continue;
    }
    const call = statement.Cmd as ShellNode;
    const words = listOf(call.Args).map((word) => wordText(word));
    const impure = listOf(statement.Redirs).length > 0 || Boolean(statement.Background || statement.Coprocess);
    const plain =
      !impure && listOf(call.Assigns).length === 0 && words.length > 0 && words.every((word) => word !== undefined);
    found.push({ words, plain });
  }
  return found;
}

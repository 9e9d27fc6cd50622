import { commandSandboxRequire } from '../package-folder.js';

interface MvdanParser {
  Parse(source: string, name: string): unknown;
}

/** The parts of mvdan-sh (mvdan.cc/sh compiled to JavaScript) this package uses; it ships no types. */
interface MvdanSyntax {
  NewParser(...options: unknown[]): MvdanParser;
  Variant(language: unknown): unknown;
  LangBash: unknown;
  NodeType(node: unknown): string;
  Walk(node: unknown, visit: (node: unknown) => boolean): void;
  SplitBraces(word: unknown): unknown;
}

// A CommonJS package without types: loaded through require so no ambient declaration is needed
// by packages that compile this source (the benchmarks read it through the source condition).
// Loaded on the first parse, not with the package: evaluating it costs a quarter to half a second
// of CPU, which every `clawsmith` start would pay even when no command is ever parsed.
let loaded: { readonly syntax: MvdanSyntax; readonly parser: MvdanParser } | undefined;
function mvdan(): { readonly syntax: MvdanSyntax; readonly parser: MvdanParser } {
  if (loaded) return loaded;
  const { syntax } = commandSandboxRequire()('mvdan-sh') as { syntax: MvdanSyntax };
  loaded = { syntax, parser: syntax.NewParser(syntax.Variant(syntax.LangBash)) };
  return loaded;
}

/**
 * A node of the mvdan.cc/sh syntax tree. Fields follow the Go names (`Stmts`, `Cmd`, `Args`,
 * `Parts`, `Value`...); only what the safety checks read is typed.
 */
export interface ShellNode {
  readonly [field: string]: unknown;
}

/** Thrown by {@link parseShell} when the text is not valid bash. */
export class ShellSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** Parses `source` as bash and returns the `File` node. */
export function parseShell(source: string): ShellNode {
  try {
    return mvdan().parser.Parse(source, 'command') as ShellNode;
  } catch (error) {
    // mvdan-sh throws Go errors: objects with an Error() method rather than JavaScript Errors.
    const goError = error as { Error?: () => string; message?: string };
    const message = typeof goError?.Error === 'function' ? goError.Error() : String(goError?.message ?? error);
    throw new ShellSyntaxError(message.replace(/^command:/, 'at '));
  }
}

/** The Go type name of `node`, for example `CallExpr`. */
export function nodeType(node: unknown): string {
  return node === null || node === undefined ? '' : mvdan().syntax.NodeType(node);
}

/** Visits every node below `root`, depth first. Must run before {@link splitBraces} touches the tree. */
export function walkShell(root: unknown, visit: (node: ShellNode) => void): void {
  mvdan().syntax.Walk(root, (node) => {
    if (node !== null && node !== undefined) visit(node as ShellNode);
    return true;
  });
}

const splitWords = new WeakSet<object>();

/** Rewrites `word` in place so brace expressions (`{a,b}`, `{1..3}`) become `BraceExp` parts. */
export function splitBraces(word: ShellNode): ShellNode {
  if (splitWords.has(word)) return word;
  splitWords.add(word);
  return mvdan().syntax.SplitBraces(word) as ShellNode;
}

/** The elements of a Go slice as a JavaScript array (mvdan-sh hands slices over as arrays). */
export function listOf(value: unknown): ShellNode[] {
  return Array.isArray(value) ? (value as ShellNode[]) : [];
}

/** The `Value` of a `Lit` node, or undefined. */
export function literalValue(node: unknown): string | undefined {
  if (nodeType(node) !== 'Lit') return undefined;
  return String((node as ShellNode).Value ?? '');
}

/** Redirect operators as mvdan.cc/sh numbers them. */
export const REDIRECT_OPERATORS = Object.freeze({
  output: 54,
  append: 55,
  input: 56,
  readWrite: 57,
  duplicateInput: 58,
  duplicateOutput: 59,
  clobber: 60,
  heredoc: 61,
  heredocTabs: 62,
  hereString: 63,
  outputAll: 64,
  appendAll: 65,
});

/** Binary command operators as mvdan.cc/sh numbers them. */
export const BINARY_OPERATORS = Object.freeze({ and: 10, or: 11, pipe: 12, pipeAll: 13 });

import type { ArrayValue } from './shell-arrays.js';
import { listOf, literalValue, nodeType, splitBraces, type ShellNode } from './shell-syntax.js';

/**
 * One argument as bash would pass it, as far as it can be known without running anything.
 * `dynamic` means part of it came from a command substitution or an unknown variable; such parts
 * are taken as empty, the pessimistic reading (`"$DIR"/` is `/` when DIR is unset).
 */
export interface Field {
  readonly text: string;
  readonly dynamic: boolean;
}

/** What is known about variables while resolving words: static values seen in the script. */
export interface WordScope {
  readonly variables: ReadonlyMap<string, readonly string[]>;
  /** Arrays (and the positional parameters, `@`) whose possible contents the script shows. */
  readonly arrays?: ReadonlyMap<string, readonly ArrayValue[]>;
}

interface Segment {
  readonly text: string;
  readonly dynamic: boolean;
  /** Unquoted expansion: whitespace in it splits fields, as IFS does. */
  readonly splits: boolean;
  /** Starts a new field: the next element of `"${a[@]}"`. */
  readonly breakBefore?: boolean;
}

type Candidate = readonly Segment[];

const MAX_CANDIDATES = 64;
const NON_EMPTY_PLACEHOLDER = '\u2026';

function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes bash's `$'...'` quoting: `$'\x72m'` is `rm`. */
export function decodeAnsiC(text: string): string {
  return text.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, escape: string) => {
      const head = escape[0] ?? '';
      if (head === 'x' || head === 'u' || head === 'U')
        return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
      if (/^[0-7]/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8));
      if (head === 'c') return String.fromCharCode((escape.charCodeAt(1) ?? 64) & 31);
      return ANSI_C_ESCAPES[escape] ?? whole;
    },
  );
}

function product(left: readonly Candidate[], right: readonly Candidate[]): Candidate[] {
  const result: Candidate[] = [];
  for (const head of left) {
    for (const tail of right) {
      if (result.length >= MAX_CANDIDATES) return result;
      result.push([...head, ...tail]);
    }
  }
  return result;
}

function single(text: string, dynamic = false, splits = false): Candidate[] {
  return [[{ text, dynamic, splits }]];
}

/**
 * The fields of an array's elements: `"${a[@]}"` keeps each element one field, unquoted
 * expansions split them, `"${a[*]}"` joins them into one.
 */
function elementsCandidate(elements: readonly Field[], quoted: boolean, joined: boolean): Candidate {
  if (quoted && joined) {
    const text = elements.map((field) => field.text).join(' ');
    return [{ text, dynamic: elements.some((field) => field.dynamic), splits: false }];
  }
  return elements.map((field, index) => ({
    text: field.text,
    dynamic: field.dynamic,
    splits: !quoted,
    breakBefore: index > 0,
  }));
}

/** `${a[@]}`, `${a[*]}`, `${a[2]}`, `"$@"` and `$*` where the script shows what the array holds. */
function arrayExpansion(node: ShellNode, name: string, quoted: boolean, scope: WordScope): Candidate[] | undefined {
  if (node.Exp || node.Repl || node.Slice || node.Length || node.Excl) return undefined;
  const positional = !node.Index && (name === '@' || name === '*');
  if (!positional && !node.Index) return undefined;
  const values = scope.arrays?.get(positional ? '@' : name);
  if (!values || values.length === 0) return undefined;
  const indexParts = listOf((node.Index as ShellNode | undefined)?.Parts);
  const index = positional ? name : indexParts.length === 1 ? literalValue(indexParts[0]) : undefined;
  if (index === '@' || index === '*')
    return values.map((value) =>
      elementsCandidate(
        value.flatMap((element) => element ?? []),
        quoted,
        index === '*',
      ),
    );
  if (index === undefined || !/^[0-9]+$/.test(index)) return undefined;
  return values.map((value) => elementsCandidate(value[Number(index)] ?? [], quoted, true));
}

function parameter(node: ShellNode, quoted: boolean, scope: WordScope): Candidate[] {
  const name = String((node.Param as ShellNode | undefined)?.Value ?? '');
  const fromArray = arrayExpansion(node, name, quoted, scope);
  if (fromArray) return fromArray;
  const plain = !node.Exp && !node.Index && !node.Repl && !node.Slice && !node.Length && !node.Excl;
  const expansion = node.Exp as ShellNode | undefined;
  if (plain && name === 'IFS') return single(' ', false, !quoted);
  if (plain && name === 'HOME') return single('~');
  const known = scope.variables.get(name);
  if (plain && known && known.length > 0) {
    return known.slice(0, MAX_CANDIDATES).map((value) => [{ text: value, dynamic: false, splits: !quoted }]);
  }
  if (expansion) {
    const operator = Number(expansion.Op);
    // ${x:?} and ${x?} stop the shell when x is unset or empty: the value is never empty.
    if (operator === 72 || operator === 73) return single(NON_EMPTY_PLACEHOLDER, true);
    // ${x:-word} and ${x:=word}: with x unknown, the default is what runs.
    if ((operator === 70 || operator === 71 || operator === 74 || operator === 75) && expansion.Word) {
      const word = expansion.Word as ShellNode;
      return partsCandidates(listOf(word.Parts), quoted, scope).map((candidate) =>
        candidate.map((segment) => ({ ...segment, dynamic: true })),
      );
    }
  }
  return single('', true, !quoted);
}

function partCandidates(part: ShellNode, quoted: boolean, scope: WordScope): Candidate[] {
  switch (nodeType(part)) {
    case 'Lit':
      return single(
        quoted ? unescapeDoubleQuoted(String(part.Value ?? '')) : unescapeUnquoted(String(part.Value ?? '')),
      );
    case 'SglQuoted':
      return single(part.Dollar ? decodeAnsiC(String(part.Value ?? '')) : String(part.Value ?? ''));
    case 'DblQuoted':
      return partsCandidates(listOf(part.Parts), true, scope);
    case 'ParamExp':
      return parameter(part, quoted, scope);
    case 'BraceExp': {
      const elements = listOf(part.Elems);
      // A sequence such as {1..9} or {a..z} yields only digits or letters: its ends stand for it.
      const chosen = part.Sequence ? elements.slice(0, 2) : elements;
      const result: Candidate[] = [];
      for (const element of chosen) {
        for (const candidate of partsCandidates(listOf(element.Parts), quoted, scope)) {
          if (result.length < MAX_CANDIDATES) result.push(candidate);
        }
      }
      return result.length > 0 ? result : single('');
    }
    case 'CmdSubst': {
      // `$(printf /opt)` and `$(echo /opt)` print their literal arguments: known before running.
      const printed = printedText(part, scope);
      return printed === undefined ? single('', true, !quoted) : single(printed, false, !quoted);
    }
    default:
      // Process substitution, arithmetic, extended globs, other commands' output: unknown until run.
      return single('', true, !quoted);
  }
}

/**
 * What `echo` or `printf` with only literal arguments prints (without the trailing newline that
 * a substitution drops), or undefined for anything else. A printf format with `%` is not
 * interpreted: its arguments are joined instead, which is what `%s %s` would print.
 */
export function printedCall(fields: readonly Field[]): string | undefined {
  const [head, ...args] = fields;
  if (!head || fields.some((field) => field.dynamic)) return undefined;
  const name = head.text.slice(head.text.lastIndexOf('/') + 1);
  if (name === 'echo') {
    const words = args.filter((field, index) => !(index === 0 && /^-[neE]+$/.test(field.text)));
    return words.map((field) => field.text).join(' ');
  }
  if (name === 'printf' && args.length > 0) {
    const [format, ...rest] = args;
    const text = format!.text.includes('%') ? rest.map((field) => field.text).join(' ') : format!.text;
    return text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  }
  return undefined;
}

function printedText(substitution: ShellNode, scope: WordScope): string | undefined {
  const statements = listOf(substitution.Stmts);
  const command = statements[0]?.Cmd as ShellNode | undefined;
  if (statements.length !== 1 || nodeType(command) !== 'CallExpr' || listOf(statements[0]?.Redirs).length > 0)
    return undefined;
  return printedCall(listOf(command?.Args).flatMap((word) => wordFields(word, scope)));
}

function partsCandidates(parts: readonly ShellNode[], quoted: boolean, scope: WordScope): Candidate[] {
  let candidates: Candidate[] = [[]];
  for (const part of parts) candidates = product(candidates, partCandidates(part, quoted, scope));
  return candidates;
}

function candidateFields(candidate: Candidate): Field[] {
  const fields: Field[] = [];
  let text = '';
  let dynamic = false;
  let started = false;
  const flush = () => {
    if (started) fields.push({ text, dynamic });
    text = '';
    dynamic = false;
    started = false;
  };
  for (const segment of candidate) {
    if (segment.breakBefore) flush();
    if (!segment.splits) {
      text += segment.text;
      dynamic ||= segment.dynamic;
      started = true;
      continue;
    }
    const pieces = segment.text.split(/[ \t\n]+/);
    pieces.forEach((piece, index) => {
      if (index > 0) flush();
      if (piece.length > 0 || segment.dynamic) {
        text += piece;
        dynamic ||= segment.dynamic;
        started = true;
      }
    });
  }
  flush();
  return fields;
}

/**
 * The fields a word becomes after brace expansion, parameter expansion of known variables,
 * IFS splitting and quote removal: `'r''m'` is `rm`, `{rm,-rf}` is `rm` and `-rf`,
 * `rm${IFS}-rf` is `rm` and `-rf`.
 */
export function wordFields(word: ShellNode, scope: WordScope): Field[] {
  const split = splitBraces(word);
  const fields: Field[] = [];
  for (const candidate of partsCandidates(listOf(split.Parts), false, scope))
    fields.push(...candidateFields(candidate));
  return fields;
}

/** The text of a word when it holds no expansion at all (for variable values and names). */
export function staticWordText(word: ShellNode | undefined, scope: WordScope): string | undefined {
  if (!word) return '';
  const fields = wordFields(word, scope);
  if (fields.some((field) => field.dynamic)) return undefined;
  return fields.map((field) => field.text).join(' ');
}

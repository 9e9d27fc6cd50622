import { listOf, literalValue, nodeType, walkShell, type ShellNode } from './shell-syntax.js';
import { wordFields, type Field, type WordScope } from './word-fields.js';

/**
 * One possible content of an array, by index (sparse, as bash arrays are): each element is the
 * fields its word became. `${a[@]}` lists the set elements in index order.
 */
export type ArrayValue = readonly (readonly Field[] | undefined)[];

/** The name bash gives the positional parameters (`set -- sudo reboot; "$@"`). */
export const POSITIONAL_PARAMETERS = '@';

/** One change to an array, in script order, resolved once the walk is over. */
export type ArrayChange =
  | { readonly name: string; readonly kind: 'replace'; readonly elements: readonly ShellNode[] }
  | { readonly name: string; readonly kind: 'append'; readonly elements: readonly ShellNode[] }
  | {
      readonly name: string;
      readonly kind: 'element';
      /** Undefined when the index is only known at run time. */
      readonly index: number | undefined;
      /** False for a plain `a=x`, which is element 0 only where `a` is an array already. */
      readonly indexed: boolean;
      readonly value?: ShellNode;
    }
  | { readonly name: string; readonly kind: 'filled-at-run-time' };

const MAX_ARRAY_CANDIDATES = 16;
const MAX_ELEMENTS = 256;

function staticIndex(index: unknown): number | undefined {
  const parts = listOf((index as ShellNode | undefined)?.Parts);
  const text = parts.length === 1 ? literalValue(parts[0]) : undefined;
  return text !== undefined && /^[0-9]{1,3}$/.test(text) ? Number(text) : undefined;
}

/**
 * The array change an assignment node makes: `a=(…)`, `a+=(…)`, `a[3]=x`; a plain `a=x` sets
 * element 0 of an array (it matters only where `a` is an array already).
 */
export function assignmentArrayChange(node: ShellNode): ArrayChange | undefined {
  const name = (node.Name as ShellNode | undefined)?.Value;
  if (name === undefined) return undefined;
  const array = node.Array as ShellNode | undefined;
  if (array) {
    const elements = listOf(array.Elems).flatMap((element) => (element.Value ? [element.Value as ShellNode] : []));
    return node.Append
      ? { name: String(name), kind: 'append', elements }
      : { name: String(name), kind: 'replace', elements };
  }
  const value = node.Value as ShellNode | undefined;
  return {
    name: String(name),
    kind: 'element',
    index: node.Index ? staticIndex(node.Index) : 0,
    indexed: Boolean(node.Index),
    ...(value ? { value } : {}),
  };
}

/**
 * The array changes a command makes: `set -- a b` (the positional parameters), and the arrays
 * `mapfile`/`readarray` and `read -a` fill from input, whose content is only known when it runs.
 */
export function callArrayChanges(words: readonly ShellNode[]): ArrayChange[] {
  const texts = words.map((word) => {
    const parts = listOf(word.Parts);
    return parts.length === 1 ? literalValue(parts[0]) : undefined;
  });
  const [name, ...args] = texts;
  if (name === 'set') {
    const first = args[0];
    if (first === undefined || (first.startsWith('-') && first !== '--')) return [];
    return [{ name: POSITIONAL_PARAMETERS, kind: 'replace', elements: words.slice(first === '--' ? 2 : 1) }];
  }
  const fills =
    name === 'mapfile' || name === 'readarray'
      ? ['MAPFILE', ...args.filter((arg): arg is string => arg !== undefined && /^[A-Za-z_]\w*$/.test(arg))]
      : name === 'read' && args.some((arg) => arg !== undefined && /^-[a-zA-Z]*a/.test(arg))
        ? args.filter((arg): arg is string => arg !== undefined && /^[A-Za-z_]\w*$/.test(arg))
        : [];
  return fills.map((filled) => ({ name: filled, kind: 'filled-at-run-time' }));
}

/**
 * What each array may hold after `changes`, by name; `null` for an array filled at run time.
 * Control flow is not followed: every full assignment is one more possible content, and appends
 * and element writes change every possible content (the pessimistic reading).
 */
export function resolveArrays(changes: readonly ArrayChange[], scope: WordScope): Map<string, ArrayValue[] | null> {
  const arrays = new Map<string, ArrayValue[] | null>();
  const fieldsOf = (elements: readonly ShellNode[]) => elements.map((element) => wordFields(element, scope));
  for (const change of changes) {
    const known = arrays.get(change.name);
    if (known === null) continue;
    if (change.kind === 'filled-at-run-time') {
      arrays.set(change.name, null);
      continue;
    }
    if (change.kind === 'replace') {
      if ((known?.length ?? 0) < MAX_ARRAY_CANDIDATES)
        arrays.set(change.name, [...(known ?? []), fieldsOf(change.elements).slice(0, MAX_ELEMENTS)]);
      continue;
    }
    if (change.kind === 'append') {
      const added = fieldsOf(change.elements);
      arrays.set(
        change.name,
        (known ?? [[]]).map((value) => [...value, ...added].slice(0, MAX_ELEMENTS)),
      );
      continue;
    }
    // A plain `a=x` is an array change only where `a` already is an array.
    if (!known && !change.indexed) continue;
    const element = change.value ? wordFields(change.value, scope) : [{ text: '', dynamic: false }];
    arrays.set(
      change.name,
      (known ?? [[]]).map((value) => {
        const next = [...value];
        // An index known only at run time: the element goes last (its place is unknown).
        next[change.index ?? next.length] = element;
        return next.slice(0, MAX_ELEMENTS);
      }),
    );
  }
  return arrays;
}

/**
 * One scope per possible array content (the i-th assignment of each array together): an array
 * assigned twice (`a=(echo hi); a=(sudo reboot)`) is judged as each, not as both merged.
 */
export function arrayVariants(scope: WordScope): WordScope[] {
  const arrays = [...(scope.arrays ?? new Map<string, readonly ArrayValue[]>())];
  const most = Math.max(1, ...arrays.map(([, values]) => values.length));
  if (most === 1) return [scope];
  return Array.from({ length: most }, (_, index) => ({
    ...scope,
    arrays: new Map(arrays.map(([name, values]) => [name, [values[Math.min(index, values.length - 1)] ?? []]])),
  }));
}

/** Arrays filled when the command runs (`mapfile`, `read -a`), by name. */
export function runTimeArrays(changes: readonly ArrayChange[]): Set<string> {
  return new Set(changes.filter((change) => change.kind === 'filled-at-run-time').map((change) => change.name));
}

/**
 * Whether a command's name comes from an array filled at run time (`mapfile -t a < <(…);
 * "${a[@]}"`): what fills it is then judged as a script, as `eval` of a built text is.
 */
export function runsRunTimeArray(calls: readonly ShellNode[], changes: readonly ArrayChange[]): boolean {
  const filled = runTimeArrays(changes);
  if (filled.size === 0) return false;
  return calls.some((call) => {
    let named = false;
    walkShell(listOf(call.Args)[0], (node) => {
      if (nodeType(node) === 'ParamExp' && filled.has(String((node.Param as ShellNode | undefined)?.Value ?? '')))
        named = true;
    });
    return named;
  });
}

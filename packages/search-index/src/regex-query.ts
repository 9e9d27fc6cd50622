import { andQuery, bytesQuery, MATCH_ALL, orQuery, type TrigramQuery } from './trigram-query.js';

// How many strings an exact set may hold before it is turned into a query (Cox keeps 16).
const MAX_EXACT = 16;

/**
 * What is known about the text a piece of a regular expression matches: either exactly one of
 * a few strings (`exact`, lowered ASCII), or a `query` the whole match must satisfy plus the
 * exact set its match ends with (`suffix`), so literals that follow can extend it.
 */
interface Info {
  readonly exact: ReadonlySet<string> | undefined;
  readonly query: TrigramQuery;
  readonly suffix: ReadonlySet<string> | undefined;
}

const ANY: Info = { exact: undefined, query: MATCH_ALL, suffix: undefined };
const EMPTY: Info = { exact: new Set(['']), query: MATCH_ALL, suffix: undefined };

class Unsupported extends Error {}

function setQuery(strings: ReadonlySet<string>): TrigramQuery {
  return orQuery([...strings].map((text) => bytesQuery(Buffer.from(text, 'latin1'), false)));
}

function cross(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> | undefined {
  if (left.size * right.size > MAX_EXACT) return undefined;
  const out = new Set<string>();
  for (const first of left) for (const second of right) out.add(first + second);
  return out;
}

function finalQuery(info: Info): TrigramQuery {
  if (info.exact) return setQuery(info.exact);
  return andQuery([info.query, info.suffix ? setQuery(info.suffix) : MATCH_ALL]);
}

function concat(left: Info, right: Info): Info {
  if (left.exact && right.exact) {
    const joined = cross(left.exact, right.exact);
    if (joined) return { exact: joined, query: MATCH_ALL, suffix: undefined };
    return { exact: undefined, query: setQuery(left.exact), suffix: right.exact };
  }
  if (right.exact) {
    const tail = left.exact ?? left.suffix;
    const joined = tail ? cross(tail, right.exact) : undefined;
    if (joined) return { exact: undefined, query: left.query, suffix: joined };
    return { exact: undefined, query: finalQuery(left), suffix: right.exact };
  }
  return { exact: undefined, query: andQuery([finalQuery(left), right.query]), suffix: right.suffix };
}

function alternate(branches: Info[]): Info {
  if (branches.every((branch) => branch.exact)) {
    const union = new Set<string>();
    for (const branch of branches) for (const text of branch.exact!) union.add(text);
    if (union.size <= MAX_EXACT) return { exact: union, query: MATCH_ALL, suffix: undefined };
  }
  return { exact: undefined, query: orQuery(branches.map(finalQuery)), suffix: undefined };
}

// Escapes whose meaning is one character that the analysis does not know: classes and control
// characters. Any other letter or digit escape (\x41, \u0041, \cJ, \k<name>, \1, \p{...}) has a
// payload or a meaning this parser does not model, so the whole analysis gives up on it.
const ONE_UNKNOWN_CHARACTER = new Set([...'dDwWsSnrtfv']);

/**
 * A recursive-descent reader of JavaScript regular-expression syntax (without the `u` or `v`
 * flag, as `search_files` compiles it), following Russ Cox's trigram analysis: literal runs,
 * small classes and alternations become exact string sets, and whatever cannot be known becomes
 * "any text". Whatever it does not understand ends the analysis with "every file".
 */
class RegexReader {
  private position = 0;

  constructor(private readonly source: string) {}

  read(): Info {
    const info = this.alternation();
    if (this.position !== this.source.length) throw new Unsupported('trailing text');
    return info;
  }

  private peek(): string | undefined {
    return this.source[this.position];
  }

  private alternation(): Info {
    const branches = [this.sequence()];
    while (this.peek() === '|') {
      this.position += 1;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? branches[0]! : alternate(branches);
  }

  private sequence(): Info {
    let info = EMPTY;
    while (this.position < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      info = concat(info, this.quantified(this.atom()));
    }
    return info;
  }

  private quantified(atom: Info): Info {
    const char = this.peek();
    let min: number;
    let max: number;
    if (char === '*' || char === '+' || char === '?') {
      this.position += 1;
      min = char === '+' ? 1 : 0;
      max = char === '?' ? 1 : Infinity;
    } else if (char === '{') {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.position));
      if (!braces) return atom;
      this.position += braces[0].length;
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]);
    } else return atom;
    if (this.peek() === '?') this.position += 1;
    if (min === 0 && max === 1 && atom.exact)
      return { exact: new Set([...atom.exact, '']), query: MATCH_ALL, suffix: undefined };
    if (min === 0) return ANY;
    // At least once: whatever one repetition must hold, the match holds.
    return { exact: undefined, query: finalQuery(atom), suffix: undefined };
  }

  private atom(): Info {
    const char = this.source[this.position]!;
    this.position += 1;
    switch (char) {
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '.':
        return ANY;
      case '^':
      case '$':
        return EMPTY;
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new Unsupported('quantifier without an atom');
      default:
        return this.character(char);
    }
  }

  private character(char: string): Info {
    const code = char.charCodeAt(0);
    if (code > 0x7e || code < 0x20) return ANY;
    return { exact: new Set([char.toLowerCase()]), query: MATCH_ALL, suffix: undefined };
  }

  private escape(): Info {
    const next = this.source[this.position];
    if (next === undefined) throw new Unsupported('trailing backslash');
    this.position += 1;
    if (next === 'b' || next === 'B') return EMPTY;
    if (ONE_UNKNOWN_CHARACTER.has(next)) return ANY;
    if (/[A-Za-z0-9]/.test(next)) throw new Unsupported(`escape \\${next}`);
    return this.character(next);
  }

  private group(): Info {
    let lookaround = false;
    if (this.peek() === '?') {
      const rest = this.source.slice(this.position + 1);
      if (rest.startsWith(':')) this.position += 2;
      else if (rest.startsWith('=') || rest.startsWith('!')) {
        this.position += 2;
        lookaround = true;
      } else if (rest.startsWith('<=') || rest.startsWith('<!')) {
        this.position += 3;
        lookaround = true;
      } else if (rest.startsWith('<')) {
        const close = this.source.indexOf('>', this.position);
        if (close < 0) throw new Unsupported('group name');
        this.position = close + 1;
      } else throw new Unsupported('group kind');
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new Unsupported('unclosed group');
    this.position += 1;
    // A lookaround consumes nothing: the text around it is adjacent in the match.
    return lookaround ? EMPTY : inner;
  }

  private characterClass(): Info {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.position += 1;
    }
    const chars = new Set<string>();
    let known = !negated;
    for (;;) {
      const char = this.source[this.position];
      if (char === undefined) throw new Unsupported('unclosed class');
      this.position += 1;
      if (char === ']') break;
      if (char === '\\') {
        this.position += 1;
        known = false;
      } else if (char === '-' || char.charCodeAt(0) > 0x7e || char.charCodeAt(0) < 0x20) known = false;
      else chars.add(char.toLowerCase());
    }
    if (!known || chars.size === 0 || chars.size > 8) return ANY;
    return { exact: chars, query: MATCH_ALL, suffix: undefined };
  }
}

/**
 * The trigram query a line must satisfy to match the regular expression `source` (compiled
 * without `u`), or `all` when no literal of three characters is required or the syntax is
 * beyond this analysis. Letters are lowered: the index is case-folded for ASCII.
 */
export function regexQuery(source: string): TrigramQuery {
  try {
    return finalQuery(new RegexReader(source).read());
  } catch (error) {
    if (error instanceof Unsupported) return MATCH_ALL;
    throw error;
  }
}

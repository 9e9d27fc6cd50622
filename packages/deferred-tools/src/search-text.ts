/**
 * Bounds, in characters, on the text of one tool that the search index reads. Text beyond a
 * bound is never read: a 10 MB description costs the same as a 2,000-character one.
 */
export interface SearchTextLimits {
  /** Characters of the name; default 256. */
  readonly name: number;
  /** Characters of each alias and each tag; default 100. */
  readonly term: number;
  /** Number of aliases and of tags read; default 32 each. */
  readonly terms: number;
  /** Characters of the search hint; default 500. */
  readonly searchHint: number;
  /** Characters of the description; default 2,000. */
  readonly description: number;
  /** Characters of a query; default 1,000. */
  readonly query: number;
}

/** The default {@link SearchTextLimits}. */
export const DEFAULT_SEARCH_TEXT_LIMITS: SearchTextLimits = Object.freeze({
  name: 256,
  term: 100,
  terms: 32,
  searchHint: 500,
  description: 2_000,
  query: 1_000,
});

/** Tokens longer than this are cut: no word is that long, and the cut keeps the index small. */
const MAX_TOKEN_LENGTH = 64;

/** Words too common to say anything about a tool; dropped from queries that have other words. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'for',
  'from',
  'how',
  'i',
  'in',
  'into',
  'is',
  'it',
  'me',
  'my',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'tool',
  'use',
  'want',
  'with',
]);

/** Returns `value` if it is a string, otherwise an empty string; never throws. */
export function readString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Folds a word to the form the index stores: lower case, a trailing plural `s` dropped
 * (`issues` and `issue` meet; `process` keeps its `ss`).
 */
function foldToken(token: string): string {
  const cut = token.length > MAX_TOKEN_LENGTH ? token.slice(0, MAX_TOKEN_LENGTH) : token;
  if (cut.length > 3 && cut.endsWith('s') && !cut.endsWith('ss')) return cut.slice(0, -1);
  return cut;
}

/**
 * Splits text into folded search tokens. Only the first `limit` characters are read. Words are
 * runs of letters and digits; camelCase and snake_case names split into their words; control
 * characters, punctuation and markup only separate words and are never interpreted.
 */
export function tokenize(text: string, limit: number): string[] {
  const bounded = text.length > limit ? text.slice(0, limit) : text;
  const separated = bounded
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .normalize('NFKC')
    .toLowerCase();
  const tokens: string[] = [];
  // split is about twice as fast as matchAll here, and the index build tokenises every description.
  for (const word of separated.split(/[^\p{L}\p{N}]+/u)) if (word.length > 0) tokens.push(foldToken(word));
  return tokens;
}

/** The distinct tokens of `text`, in first-seen order. */
export function distinctTokens(text: string, limit: number): string[] {
  return [...new Set(tokenize(text, limit))];
}

/**
 * The terms of a query: distinct tokens, at most `maxTerms`, stop words dropped unless the query
 * has nothing else.
 */
export function queryTerms(query: string, limit: number, maxTerms: number): string[] {
  const tokens = distinctTokens(query, limit);
  const meaningful = tokens.filter((token) => !STOP_WORDS.has(token));
  return (meaningful.length > 0 ? meaningful : tokens).slice(0, maxTerms);
}

/** A name as the exact-name comparison sees it: trimmed, NFKC, lower case. */
export function normalizeName(name: string, limit: number): string {
  const bounded = name.length > limit ? name.slice(0, limit) : name;
  return bounded.trim().normalize('NFKC').toLowerCase();
}

/**
 * A short, inert one-line excerpt of untrusted text (a description), for showing in a search
 * result: bounded, with control characters and line breaks turned into spaces. Callers quote it
 * with JSON.stringify so it reads as data, never as instructions of the result's own.
 */
export function excerpt(text: string, limit: number): string {
  const bounded = text.length > limit * 2 ? text.slice(0, limit * 2) : text;
  const flattened = bounded
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flattened.length > limit ? `${flattened.slice(0, limit - 1)}…` : flattened;
}

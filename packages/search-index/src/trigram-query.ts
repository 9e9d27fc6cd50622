import { isJoint, isJointGramKey, jointGramKeyOf, packTrigram } from './trigrams.js';

/**
 * What a file's index keys must satisfy to possibly match: every file (`all`, the index cannot
 * narrow), one key (a trigram, or a hashed joint gram with its `text` for reports), or an AND / OR
 * of queries. A necessary condition, never a sufficient one.
 */
export type TrigramQuery =
  | { readonly kind: 'all' }
  | { readonly kind: 'trigram'; readonly value: number; readonly text?: string }
  | { readonly kind: 'and'; readonly parts: readonly TrigramQuery[] }
  | { readonly kind: 'or'; readonly parts: readonly TrigramQuery[] };

/** The query that every file satisfies. */
export const MATCH_ALL: TrigramQuery = Object.freeze({ kind: 'all' });

/** AND of `parts`, with `all` dropped; `all` when nothing is left. */
export function andQuery(parts: readonly TrigramQuery[]): TrigramQuery {
  const kept: TrigramQuery[] = [];
  const seen = new Set<number>();
  for (const part of parts) {
    if (part.kind === 'all') continue;
    if (part.kind === 'and') {
      for (const inner of part.parts) kept.push(inner);
      continue;
    }
    if (part.kind === 'trigram') {
      if (seen.has(part.value)) continue;
      seen.add(part.value);
    }
    kept.push(part);
  }
  if (kept.length === 0) return MATCH_ALL;
  return kept.length === 1 ? kept[0]! : { kind: 'and', parts: kept };
}

/** OR of `parts`; `all` as soon as one part is. */
export function orQuery(parts: readonly TrigramQuery[]): TrigramQuery {
  if (parts.length === 0 || parts.some((part) => part.kind === 'all')) return MATCH_ALL;
  return parts.length === 1 ? parts[0]! : { kind: 'or', parts };
}

const packed = (bytes: Uint8Array, at: number) =>
  (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;

/**
 * AND of the trigrams of `bytes`, and with `jointGrams` of its exact-case joint grams too; with
 * `asciiOnly`, those holding a byte beyond ASCII are left out.
 */
export function bytesQuery(bytes: Uint8Array, asciiOnly: boolean, jointGrams = false): TrigramQuery {
  const parts: TrigramQuery[] = [];
  const ascii = (index: number) => !asciiOnly || bytes[index]! <= 0x7f;
  for (let index = 0; index + 2 < bytes.length; index += 1) {
    const [first, second, third] = [bytes[index]!, bytes[index + 1]!, bytes[index + 2]!];
    if (!ascii(index) || !ascii(index + 1) || !ascii(index + 2)) continue;
    parts.push({ kind: 'trigram', value: packTrigram(first, second, third) });
  }
  for (let index = 0; jointGrams && index + 7 < bytes.length; index += 1) {
    if (!isJoint(bytes[index + 3]!, bytes[index + 4]!)) continue;
    if (asciiOnly && bytes.subarray(index, index + 8).some((byte) => byte > 0x7f)) continue;
    const value = jointGramKeyOf(packed(bytes, index), packed(bytes, index + 4));
    parts.push({ kind: 'trigram', value, text: Buffer.from(bytes.subarray(index, index + 8)).toString('latin1') });
  }
  return andQuery(parts);
}

/**
 * The query for a literal search: its trigrams, and when case matters its exact-case joint grams.
 * Case-insensitive matching folds letters beyond ASCII too, so then only trigrams made of ASCII
 * bytes are required (the index lowers ASCII letters itself).
 */
export function literalQuery(text: string, ignoreCase: boolean): TrigramQuery {
  return bytesQuery(Buffer.from(text, 'utf8'), ignoreCase, !ignoreCase);
}

/**
 * `query` with every key that `held` says all files hold (a stored index's common keys) taken as
 * `all`: the AND and OR around it simplified as {@link andQuery} and {@link orQuery} do.
 */
export function withoutKeysHeldByAll(query: TrigramQuery, held: (key: number) => boolean): TrigramQuery {
  switch (query.kind) {
    case 'all':
      return query;
    case 'trigram':
      return held(query.value) ? MATCH_ALL : query;
    case 'and':
      return andQuery(query.parts.map((part) => withoutKeysHeldByAll(part, held)));
    case 'or':
      return orQuery(query.parts.map((part) => withoutKeysHeldByAll(part, held)));
  }
}

/** Whether a sorted trigram list satisfies `query`. */
export function satisfies(query: TrigramQuery, has: (trigram: number) => boolean): boolean {
  switch (query.kind) {
    case 'all':
      return true;
    case 'trigram':
      return has(query.value);
    case 'and':
      return query.parts.every((part) => satisfies(part, has));
    case 'or':
      return query.parts.some((part) => satisfies(part, has));
  }
}

/** Query as text, for tests and reports: `"abc" AND ("def" OR "ghi")`. */
export function describeQuery(query: TrigramQuery): string {
  switch (query.kind) {
    case 'all':
      return 'ALL';
    case 'trigram':
      if (isJointGramKey(query.value)) return JSON.stringify(query.text ?? '????????');
      return JSON.stringify(
        String.fromCharCode((query.value >> 16) & 255, (query.value >> 8) & 255, query.value & 255),
      );
    case 'and':
      return query.parts
        .map((part) => (part.kind === 'or' ? `(${describeQuery(part)})` : describeQuery(part)))
        .join(' AND ');
    case 'or':
      return query.parts
        .map((part) => (part.kind === 'and' ? `(${describeQuery(part)})` : describeQuery(part)))
        .join(' OR ');
  }
}

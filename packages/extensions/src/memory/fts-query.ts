/** At most this many words of a query are searched. */
export const MAX_QUERY_TERMS = 16;

/**
 * The words of a free-text query as an FTS5 expression that cannot be a syntax error: each word
 * (letters, digits, underscore) becomes a quoted string, joined with OR so that BM25 ranks the
 * chunks holding more of them first. Quotes, operators (`AND`, `NEAR`, `-`, `*`, `^`, `:`) and
 * parentheses in the query are only text. Returns the words too, for choosing a snippet's line.
 */
export function ftsQuery(query: string): { expression: string; terms: string[] } | undefined {
  const terms = [
    ...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((term) => term.length > 0)),
  ].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return undefined;
  return { expression: terms.map((term) => `"${term}"`).join(' OR '), terms };
}

/** Rows per INSERT: a statement may bind at most 32,766 variables, and a row binds up to 7. */
export const INSERT_CHUNK = 500;

/** `rows` in slices of at most {@link INSERT_CHUNK}, one INSERT each. */
export function* insertChunks<Row>(rows: readonly Row[]): Generator<Row[]> {
  for (let index = 0; index < rows.length; index += INSERT_CHUNK) yield rows.slice(index, index + INSERT_CHUNK);
}

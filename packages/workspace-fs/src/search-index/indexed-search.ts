import type { WalkedFile } from '../workspace-walk.js';
import { literalQuery, regexQuery, type SearchIndexes } from '@clawsmith/search-index';

/** How the index took part in a search, for the report. */
export type IndexUse =
  | {
      readonly used: true;
      readonly files: WalkedFile[];
      /** Searchable files the index knows in the searched folder. */
      readonly known: number;
      /** Candidates searched directly: changed since indexing, or unreadable when indexed. */
      readonly direct: number;
    }
  | { readonly used: false; readonly reason: string };

/**
 * Asks the workspace's index for the candidate files of a search, or says why it cannot help:
 * still building, failed, or a query without a literal of three characters.
 */
export async function indexedCandidates(
  indexes: SearchIndexes,
  root: string,
  folder: string,
  query: { text: string; regex: boolean; ignoreCase: boolean },
  include: ((relative: string) => boolean) | undefined,
): Promise<IndexUse> {
  const index = indexes.forRoot(root);
  const plan = query.regex ? regexQuery(query.text) : literalQuery(query.text, query.ignoreCase);
  if (plan.kind === 'all')
    return {
      used: false,
      reason: query.regex
        ? 'the expression requires no literal text of three or more characters'
        : 'the query is shorter than three characters',
    };
  if (!(await index.prepare())) {
    return {
      used: false,
      reason:
        index.state === 'failed'
          ? `it could not be built (${index.failure ?? 'unknown error'})`
          : index.state === 'building'
            ? `it is being built${index.failure ? ` (the stored one was refused: ${index.failure})` : ''}`
            : 'it is being loaded',
    };
  }
  return { used: true, ...index.candidates(plan, folder, include) };
}

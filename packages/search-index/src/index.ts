// Everything exported here is the public API of @clawsmith/search-index; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { SearchIndexOptions } from './search-indexes.js';
export { SearchIndexes } from './search-indexes.js';
export type { IndexCandidates, IndexState, WorkspaceIndex, WorkspaceIndexSettings } from './workspace-index.js';

export type { TrigramQuery } from './trigram-query.js';
export { describeQuery, literalQuery, satisfies } from './trigram-query.js';
export { regexQuery } from './regex-query.js';
export { hasTrigram, TrigramCollector } from './trigrams.js';

export { compareWalkOrder, isUnder, rangeUnder } from './walk-order.js';

export type { IndexKey, StoredIndex, StoredIndexFigures } from './stored-index.js';
export { parseStoredIndex, postingsOf, STORED_INDEX_FORMAT } from './stored-index.js';

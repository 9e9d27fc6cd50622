// Everything exported here is the public API of @clawsmith/artifacts; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export {
  artifactMigrations,
  migrateArtifacts,
  ARTIFACT_MIGRATION_LOCK_TABLE,
  ARTIFACT_MIGRATION_TABLE,
} from './migrations.js';

export type {
  ArtifactInfo,
  ArtifactOwner,
  ArtifactStore,
  ArtifactStoreOptions,
  OpenArtifact,
} from './artifact-store.js';
export { createArtifactStore } from './artifact-store.js';

export type { ExternalizeOptions, ExternalizedContent } from './externalize.js';
export type { ByteRange, ByteRangeResult, LineRange, LineRangeResult } from './range-reads.js';
export type { SearchOptions, SearchResult, SearchStop } from './keyword-search.js';
export type { SearchLine } from './search-collector.js';
export type { ArtifactPruneResult } from './retention.js';

export type { ArtifactReadLimits, ArtifactRetention } from './artifact-limits.js';
export {
  DEFAULT_EXTERNALIZE_THRESHOLD,
  DEFAULT_LINE_INDEX_INTERVAL,
  DEFAULT_READ_LIMITS,
  DEFAULT_ARTIFACT_RETENTION,
} from './artifact-limits.js';

export type { ReadArtifactInput } from './read-artifact-input.js';
export { readArtifactInputSchema } from './read-artifact-input.js';
export type { ReadArtifactTool } from './read-artifact-tool.js';
export { createReadArtifactTool } from './read-artifact-tool.js';

export {
  ArtifactNotFoundError,
  ArtifactWriterClosedError,
  InvalidArtifactOptionsError,
  InvalidArtifactRangeError,
  InvalidSearchPatternError,
} from './artifact-errors.js';

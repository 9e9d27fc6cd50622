import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/artifacts public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ARTIFACT_MIGRATION_LOCK_TABLE',
      'ARTIFACT_MIGRATION_TABLE',
      'ArtifactNotFoundError',
      'ArtifactWriterClosedError',
      'DEFAULT_ARTIFACT_RETENTION',
      'DEFAULT_EXTERNALIZE_THRESHOLD',
      'DEFAULT_LINE_INDEX_INTERVAL',
      'DEFAULT_READ_LIMITS',
      'InvalidArtifactOptionsError',
      'InvalidArtifactRangeError',
      'InvalidSearchPatternError',
      'artifactMigrations',
      'createArtifactStore',
      'createReadArtifactTool',
      'migrateArtifacts',
      'readArtifactInputSchema',
    ]);
  });

  it('keeps its error codes, migration table names and default limits', () => {
    expect([
      new api.ArtifactNotFoundError().code,
      new api.InvalidArtifactRangeError('m').code,
      new api.InvalidSearchPatternError('m').code,
      new api.ArtifactWriterClosedError('m').code,
      new api.InvalidArtifactOptionsError('m').code,
    ]).toEqual([
      'artifact_not_found',
      'invalid_artifact_range',
      'invalid_search_pattern',
      'artifact_writer_closed',
      'invalid_artifact_options',
    ]);
    expect([api.ARTIFACT_MIGRATION_TABLE, api.ARTIFACT_MIGRATION_LOCK_TABLE]).toEqual([
      'clawsmith_artifacts_migration',
      'clawsmith_artifacts_migration_lock',
    ]);
    expect(api.DEFAULT_EXTERNALIZE_THRESHOLD).toBe(50_000);
    expect(api.DEFAULT_READ_LIMITS).toEqual({
      maxBytes: 65_536,
      maxLines: 2_000,
      maxLineCharacters: 1_000,
      defaultMatches: 20,
      maxMatches: 100,
      maxContextLines: 10,
      searchScanBytes: 67_108_864,
      searchLineBytes: 1_048_576,
      searchTimeMs: 2_000,
      maxPatternLength: 1_000,
    });
    expect(api.DEFAULT_ARTIFACT_RETENTION).toEqual({
      maxAgeMs: 2_592_000_000,
      maxBytesPerSession: 104_857_600,
      maxTotalBytes: 1_073_741_824,
      keepNewestPerSession: 5,
    });
  });
});

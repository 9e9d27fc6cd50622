/**
 * Bounds of every answer the store gives and of the work one read may do. Every `read_artifact`
 * answer stays within `maxBytes` of artifact text whatever the input asks for.
 */
export interface ArtifactReadLimits {
  /** Bytes of artifact text in one byte-range or line-range answer, and of one search answer's text. Default 65,536. */
  readonly maxBytes: number;
  /** Lines in one line-range answer. Default 2,000. */
  readonly maxLines: number;
  /** Characters of one line shown in a search answer (the rest is cut with a marker). Default 1,000. */
  readonly maxLineCharacters: number;
  /** Matches a search returns when the input does not say. Default 20. */
  readonly defaultMatches: number;
  /** Most matches one search may return. Default 100. */
  readonly maxMatches: number;
  /** Most lines of context around each match. Default 10. */
  readonly maxContextLines: number;
  /** Bytes one search may scan before it stops and says where to continue. Default 64 MiB. */
  readonly searchScanBytes: number;
  /** Bytes of one line a search looks at; the rest of a longer line is skipped. Default 1 MiB. */
  readonly searchLineBytes: number;
  /** Milliseconds of matching one search may spend; a slow regular expression is stopped. Default 2,000. */
  readonly searchTimeMs: number;
  /** Longest search pattern, in characters. Default 1,000. */
  readonly maxPatternLength: number;
}

/** The default {@link ArtifactReadLimits}. */
export const DEFAULT_READ_LIMITS: ArtifactReadLimits = Object.freeze({
  maxBytes: 65_536,
  maxLines: 2_000,
  maxLineCharacters: 1_000,
  defaultMatches: 20,
  maxMatches: 100,
  maxContextLines: 10,
  searchScanBytes: 64 * 1024 * 1024,
  searchLineBytes: 1024 * 1024,
  searchTimeMs: 2_000,
  maxPatternLength: 1_000,
});

/** Retention of artifacts, the same shape and defaults as checkpoint retention. */
export interface ArtifactRetention {
  /** Artifacts older than this are removed. Default 30 days. */
  readonly maxAgeMs: number;
  /** Bytes kept per session; the oldest artifacts beyond it are removed. Default 100 MiB. */
  readonly maxBytesPerSession: number;
  /** Bytes kept in all; the oldest artifacts beyond it are removed. Default 1 GiB. */
  readonly maxTotalBytes: number;
  /** The newest artifacts of each session kept whatever their age or size. Default 5. */
  readonly keepNewestPerSession: number;
}

/** The default {@link ArtifactRetention}. */
export const DEFAULT_ARTIFACT_RETENTION: ArtifactRetention = Object.freeze({
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  maxBytesPerSession: 100 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  keepNewestPerSession: 5,
});

/** Default inline threshold of {@link ArtifactStore.externalize}, in bytes. */
export const DEFAULT_EXTERNALIZE_THRESHOLD = 50_000;

/** Default distance between line index marks, in bytes. */
export const DEFAULT_LINE_INDEX_INTERVAL = 64 * 1024;

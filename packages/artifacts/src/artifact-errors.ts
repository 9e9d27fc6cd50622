import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * Thrown for an id that names no artifact of the calling session. The message is the same for
 * an unknown id, another session's id and anything path-like, so it reveals nothing.
 */
export class ArtifactNotFoundError extends ClawsmithError {
  constructor() {
    super(
      'artifact_not_found',
      'Artifact not found in this session. Use the exact id from the tool result that mentioned it (it looks like art_ followed by 32 hex digits).',
    );
    this.name = 'ArtifactNotFoundError';
  }
}

/** Thrown for a byte range, line range or search option that cannot be served as given. */
export class InvalidArtifactRangeError extends ClawsmithError {
  constructor(message: string) {
    super('invalid_artifact_range', message);
    this.name = 'InvalidArtifactRangeError';
  }
}

/** Thrown for a search pattern that is empty, too long, or not a valid regular expression. */
export class InvalidSearchPatternError extends ClawsmithError {
  constructor(message: string, cause?: unknown) {
    super('invalid_search_pattern', message, { cause });
    this.name = 'InvalidSearchPatternError';
  }
}

/** Thrown when appending to an appendable artifact that was closed, deleted or failed. */
export class ArtifactWriterClosedError extends ClawsmithError {
  constructor(message: string, cause?: unknown) {
    super('artifact_writer_closed', message, { cause });
    this.name = 'ArtifactWriterClosedError';
  }
}

/** Thrown for an invalid media type or write option; nothing was stored. */
export class InvalidArtifactOptionsError extends ClawsmithError {
  constructor(message: string) {
    super('invalid_artifact_options', message);
    this.name = 'InvalidArtifactOptionsError';
  }
}

/**
 * The one shape used everywhere an artifact is named: in a tool result, in the
 * `tool.completed` event, and in the persisted message. It carries no body.
 */
export interface ArtifactReference {
  /** Opaque, unguessable id; the only handle `read_artifact` accepts. */
  readonly id: string;
  /** Media type of the stored content, for example `text/plain; charset=utf-8`. */
  readonly mediaType: string;
  /** Length of the stored content in bytes (so far, for an artifact still being appended to). */
  readonly byteLength: number;
  /** Number of lines in the stored content (a last line without a newline counts). */
  readonly lineCount: number;
  /** SHA-256 of the stored content, lowercase hex; absent while an appendable artifact is open. */
  readonly sha256?: string;
}

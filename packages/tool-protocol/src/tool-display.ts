/**
 * What kind of projection a {@link ToolDisplay} is, so a UI can choose how to show it:
 * plain text, a command run, search hits, a file diff, an artifact, or structured JSON.
 */
export type ToolDisplayKind = 'text' | 'command' | 'search' | 'diff' | 'artifact' | 'json';

/** Every {@link ToolDisplayKind}. */
export const TOOL_DISPLAY_KINDS: readonly ToolDisplayKind[] = Object.freeze([
  'text',
  'command',
  'search',
  'diff',
  'artifact',
  'json',
] as const);

/** One labelled value shown beside a display's body, for example `exit code: 0`. */
export interface ToolDisplayField {
  /** Short label. */
  readonly label: string;
  /** The value, as text. */
  readonly value: string;
}

/**
 * The projection of a tool result for CLI and web UIs. It never replaces or overwrites the
 * `content` the model sees; UIs render it as text only (never as HTML). Every part is bounded
 * and redacted by {@link sanitizeDisplay} before it is persisted or shown.
 */
export interface ToolDisplay {
  /** Which projection this is. */
  readonly kind: ToolDisplayKind;
  /** One-line title, for example `Edited src/a.ts`. */
  readonly title: string;
  /** Optional bounded body: a diff, a command's output tail, search hits. */
  readonly body?: string;
  /** Optional labelled values. */
  readonly fields?: readonly ToolDisplayField[];
}

/** Bounds that {@link sanitizeDisplay} enforces, in characters (fields: count). */
export interface ToolDisplayLimits {
  /** Title length; default 200. */
  readonly title: number;
  /** Body length; default 16,000. */
  readonly body: number;
  /** Field label length; default 100. */
  readonly label: number;
  /** Field value length; default 1,000. */
  readonly value: number;
  /** Number of fields; default 32. */
  readonly fields: number;
}

/** The default {@link ToolDisplayLimits}. */
export const DEFAULT_DISPLAY_LIMITS: ToolDisplayLimits = Object.freeze({
  title: 200,
  body: 16_000,
  label: 100,
  value: 1_000,
  fields: 32,
});

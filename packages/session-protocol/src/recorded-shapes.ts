import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';

/**
 * How a UI may show a tool result (kept in `tool.completed`); the model never sees it. Rendered
 * as text only, never as HTML.
 */
export const toolDisplayRecordSchema = z.object({
  /** Which projection this is: plain text, a command run, search hits, a diff, an artifact, JSON. */
  kind: z.enum(['text', 'command', 'search', 'diff', 'artifact', 'json']),
  /** One-line title, for example `Edited src/a.ts`. */
  title: z.string(),
  /** A bounded body: a diff, a command's output tail, search hits. */
  body: z.string().optional(),
  /** Labelled values, for example `exit code: 0`. */
  fields: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
});

/** A tool result's display projection, as recorded. */
export type ToolDisplayRecord = DeepReadonly<z.infer<typeof toolDisplayRecordSchema>>;

/** Where a large output went: the artifact's id and size, never its body. */
export const artifactReferenceRecordSchema = z.object({
  /** Opaque id, the handle `read_artifact` takes. */
  id: z.string(),
  /** Media type of the stored content. */
  mediaType: z.string(),
  /** Stored length in bytes. */
  byteLength: z.number(),
  /** Stored lines (a last line without a newline counts). */
  lineCount: z.number(),
  /** SHA-256 of the content, lowercase hex; absent while the artifact was still being appended to. */
  sha256: z.string().optional(),
});

/** An artifact reference, as recorded. */
export type ArtifactReferenceRecord = DeepReadonly<z.infer<typeof artifactReferenceRecordSchema>>;

/** How a tool call ended (see the tool result protocol). */
export const toolResultStatusSchema = z.enum(['success', 'error', 'denied', 'cancelled', 'unknown']);

/** One of the five statuses of a tool result. */
export type ToolResultStatusRecord = DeepReadonly<z.infer<typeof toolResultStatusSchema>>;

/** Everything about a tool result except the model-facing text (`version: 1`). */
export const toolResultRecordSchema = z.object({
  /** Version of this shape. */
  version: z.literal(1),
  /** How the call ended. */
  status: toolResultStatusSchema,
  /** Stable machine-readable reason, for anything but a plain success. */
  code: z.string().optional(),
  /** True only where retrying is safe by protocol. */
  retryable: z.boolean().optional(),
  /** Projection for UIs. */
  display: toolDisplayRecordSchema.optional(),
  /** Where the full output went when it was too large to keep inline. */
  artifact: artifactReferenceRecordSchema.optional(),
  /** A process's exit code, when it exited. */
  exitCode: z.number().optional(),
  /** How long a process ran, in milliseconds. */
  durationMs: z.number().optional(),
});

/** A tool result's metadata, as recorded. */
export type ToolResultRecord = DeepReadonly<z.infer<typeof toolResultRecordSchema>>;

/** Why something failed: a stable code, a message that says what to do next, and whether retrying may help. */
export const failureRecordSchema = z.object({
  /** Stable machine-readable code. */
  code: z.string(),
  /** What happened and what to do next. */
  message: z.string(),
  /** Whether the same request may succeed if tried again. */
  retryable: z.boolean(),
});

/** A failure, as recorded. */
export type FailureRecord = DeepReadonly<z.infer<typeof failureRecordSchema>>;

/** One todo item; `todo_write` replaces the whole list. */
export const todoItemRecordSchema = z.object({
  /** What to do. */
  content: z.string(),
  /** Where it stands. */
  status: z.enum(['pending', 'in_progress', 'completed']),
});

/** A todo item, as recorded. */
export type TodoItemRecord = DeepReadonly<z.infer<typeof todoItemRecordSchema>>;

/** Tokens a model request used, as the provider reported them. */
export const tokenUsageRecordSchema = z.object({
  /** Tokens read, the prompt, including cached prompt tokens. */
  inputTokens: z.number(),
  /** Tokens written. */
  outputTokens: z.number(),
  /** Of `inputTokens`, those served from the provider's prompt cache, when it says. */
  cacheReadTokens: z.number().optional(),
  /** Of `inputTokens`, those written to the provider's prompt cache, when it says. */
  cacheWriteTokens: z.number().optional(),
});

/** Token usage, as recorded. */
export type TokenUsageRecord = DeepReadonly<z.infer<typeof tokenUsageRecordSchema>>;

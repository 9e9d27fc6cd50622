import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { eventEnvelopeShape } from './event-envelope.js';
import { artifactReferenceRecordSchema, toolResultRecordSchema, toolResultStatusSchema } from './recorded-shapes.js';

/** One judgement on a call: by the hooks, the permission policy, or the person's approval. */
export const toolDecisionEventSchema = z.object({
  type: z.literal('tool.decision'),
  ...eventEnvelopeShape,
  /** The call judged. */
  toolCallId: z.string(),
  /** Its tool. */
  toolName: z.string(),
  /** Who judged. */
  stage: z.enum(['hook', 'permission', 'approval']),
  /** The verdict. */
  action: z.enum(['allow', 'ask', 'deny']),
  /** Why, in words a person reads. */
  reason: z.string(),
  /** What was judged (permission stage): the workspace-relative paths the call touches, as resolved once. */
  paths: z.array(z.string()).optional(),
  /** What was judged (permission stage): each simple command of a command text, its words joined by spaces (`?` for a word only known when it runs). */
  commands: z.array(z.string()).optional(),
  /** What was judged (permission stage): the host of the URL the call fetches (`(unreadable URL)` when it is not a readable http(s) URL). */
  domains: z.array(z.string()).optional(),
  /** The hook that replaced the call's input (`updatedInput`), when one did. */
  inputUpdatedBy: z.string().optional(),
});

/** A person is asked to approve a call. */
export const approvalRequestedEventSchema = z.object({
  type: z.literal('approval.requested'),
  ...eventEnvelopeShape,
  /** The pending approval's id (what an answer names). */
  approvalId: z.string(),
  /** The call waiting. */
  toolCallId: z.string(),
  /** Its tool. */
  toolName: z.string(),
  /** One line saying what the call will do. */
  summary: z.string(),
  /** The call's effective risk. */
  risk: z.string(),
  /** Why the person is asked. */
  reason: z.string(),
});

/** The person (or the failure to reach one) answered an approval. */
export const approvalResolvedEventSchema = z.object({
  type: z.literal('approval.resolved'),
  ...eventEnvelopeShape,
  /** The approval answered. */
  approvalId: z.string(),
  /** The call it was about. */
  toolCallId: z.string(),
  /** `allow` once, `allow-session` (this tool for the rest of the session), or `deny`. */
  answer: z.enum(['allow', 'deny', 'allow-session']),
  /** The approval handler failed, which denies. */
  handlerFailed: z.literal(true).optional(),
});

/** A call passed every check and its tool is about to run. */
export const toolStartedEventSchema = z.object({
  type: z.literal('tool.started'),
  ...eventEnvelopeShape,
  /** The call. */
  toolCallId: z.string(),
  /** Its tool. */
  toolName: z.string(),
  /** One line saying what the call does. */
  summary: z.string(),
  /** The effective risk (declared risk raised to its capabilities' floor). */
  risk: z.string(),
  /** The capabilities the call may use. */
  capabilities: z.array(z.string()),
  /** Whether the tool changes anything outside itself (then recovery never replays it). */
  sideEffect: z.boolean(),
  /** SHA-256 of the tool's input schema as the model saw it. */
  toolSchemaSha256: z.string().optional(),
});

/** A long-running call reported progress (bounded in count and rate). */
export const toolProgressEventSchema = z.object({
  type: z.literal('tool.progress'),
  ...eventEnvelopeShape,
  /** The call. */
  toolCallId: z.string(),
  /** Its tool. */
  toolName: z.string(),
  /** Work done so far. */
  progress: z.number(),
  /** Total work, when known. */
  total: z.number().optional(),
  /** A short message from the tool: untrusted text, shown sanitised. */
  message: z.string().optional(),
});

/** A call's one result, whatever happened (recovery writes one with `recovered: true`). */
export const toolCompletedEventSchema = z.object({
  type: z.literal('tool.completed'),
  ...eventEnvelopeShape,
  /** The call. */
  toolCallId: z.string(),
  /** Its tool. */
  toolName: z.string(),
  /** The result's metadata (status, code, display, artifact, exit code, duration). */
  result: toolResultRecordSchema,
  /** The result's status, repeated for readers that look no deeper. */
  status: toolResultStatusSchema,
  /** The text the model read (a head/tail preview when the output went to an artifact). */
  output: z.string(),
  /** Where the whole output went, when it was too large to keep inline. */
  artifact: artifactReferenceRecordSchema.optional(),
  /** Written by recovery for a call whose process died. */
  recovered: z.literal(true).optional(),
});

/** `tool.decision`. */
export type ToolDecisionEvent = DeepReadonly<z.infer<typeof toolDecisionEventSchema>>;
/** `approval.requested`. */
export type ApprovalRequestedEvent = DeepReadonly<z.infer<typeof approvalRequestedEventSchema>>;
/** `approval.resolved`. */
export type ApprovalResolvedEvent = DeepReadonly<z.infer<typeof approvalResolvedEventSchema>>;
/** `tool.started`. */
export type ToolStartedEvent = DeepReadonly<z.infer<typeof toolStartedEventSchema>>;
/** `tool.progress`. */
export type ToolProgressEvent = DeepReadonly<z.infer<typeof toolProgressEventSchema>>;
/** `tool.completed`. */
export type ToolCompletedEvent = DeepReadonly<z.infer<typeof toolCompletedEventSchema>>;

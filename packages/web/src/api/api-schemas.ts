import { sessionEventSchema } from '@clawsmith/session-protocol';
import { z } from 'zod';

/**
 * Ids in URLs: a letter or digit, then letters, digits, `.`, `_`, `:`, `-`, at most 128 in all.
 * Anything else (a slash, `..`, a NUL, a space) is refused before it reaches the store.
 */
export const idSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'An id is 1-128 letters, digits, ".", "_", ":" or "-".');

/** A non-negative integer written in decimal digits in a query (no sign, exponent or spaces). */
const countText = (name: string, maximum: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, `${name} must be a whole number from 0 to ${maximum}.`)
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value <= maximum, `${name} must be at most ${maximum}.`);

const pageLimit = (maximum: number, fallback: number) =>
  countText('limit', maximum)
    .refine((value) => value >= 1, 'limit must be at least 1.')
    .optional()
    .transform((value) => value ?? fallback);

/** The largest sequence number the API accepts (JavaScript's largest safe integer). */
export const MAX_SEQUENCE = Number.MAX_SAFE_INTEGER;

/** `GET /api/sessions`: newest first, `limit` (1-200, default 50) from `offset`. */
export const sessionListQuerySchema = z
  .object({
    limit: pageLimit(200, 50),
    offset: countText('offset', 1_000_000)
      .optional()
      .transform((value) => value ?? 0),
  })
  .strict();

/**
 * `GET /api/sessions/:sessionId/events`: events after `afterSequence` (default 0), at most `limit`
 * (1-1,000, default 200); or, with `newest` (1-1,000) alone, the newest that many events (the page
 * a view opens on, in one request).
 */
export const eventPageQuerySchema = z
  .object({
    afterSequence: countText('afterSequence', MAX_SEQUENCE).optional(),
    limit: countText('limit', 1_000)
      .refine((value) => value >= 1, 'limit must be at least 1.')
      .optional(),
    newest: countText('newest', 1_000)
      .refine((value) => value >= 1, 'newest must be at least 1.')
      .optional(),
  })
  .strict()
  .refine((query) => query.newest === undefined || (query.afterSequence === undefined && query.limit === undefined), {
    message: 'newest stands alone: ask for the newest N events, or for up to limit events after afterSequence.',
    path: ['newest'],
  })
  .transform((query): { readonly afterSequence: number; readonly limit: number } | { readonly newest: number } =>
    query.newest === undefined
      ? { afterSequence: query.afterSequence ?? 0, limit: query.limit ?? 200 }
      : { newest: query.newest },
  );

/** `GET /api/sessions/:sessionId/events/stream`: where to start when no `Last-Event-ID` header is sent. */
export const eventStreamQuerySchema = z
  .object({
    afterSequence: countText('afterSequence', MAX_SEQUENCE)
      .optional()
      .transform((value) => value ?? 0),
  })
  .strict();

/** `GET /api/sessions/:sessionId/messages`: `limit` (1-500, default 200) from `offset`. */
export const messagePageQuerySchema = z
  .object({
    offset: countText('offset', MAX_SEQUENCE)
      .optional()
      .transform((value) => value ?? 0),
    limit: pageLimit(500, 200),
  })
  .strict();

/** `GET /api/sessions/:sessionId/turns/:turnId/diff?path=`: a workspace-relative path the turn changed. */
export const diffQuerySchema = z
  .object({
    path: z
      .string()
      .min(1, 'path is required: a workspace-relative path from the turn manifest.')
      .max(4_096)
      .refine((value) => !value.includes('\u0000'), 'path must not contain NUL.'),
  })
  .strict();

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * `GET /api/sessions/:sessionId/artifacts/:artifactId`: exactly one of a byte range
 * (`offset`, `length`), a line range (`startLine`, `endLine`) or a search (`pattern`, `regex`,
 * `ignoreCase`, `maxMatches`, `contextLines`, `fromLine`), as `read_artifact` takes them.
 */
export const artifactReadQuerySchema = z
  .object({
    offset: countText('offset', MAX_SEQUENCE).optional(),
    length: countText('length', MAX_SEQUENCE).optional(),
    startLine: countText('startLine', MAX_SEQUENCE).optional(),
    endLine: countText('endLine', MAX_SEQUENCE).optional(),
    pattern: z.string().min(1).max(10_000).optional(),
    regex: flag.optional(),
    ignoreCase: flag.optional(),
    maxMatches: countText('maxMatches', MAX_SEQUENCE).optional(),
    contextLines: countText('contextLines', MAX_SEQUENCE).optional(),
    fromLine: countText('fromLine', MAX_SEQUENCE).optional(),
  })
  .strict();

/** `POST /api/login`: the single-use sign-in code of a sign-in URL (`#token=CODE`), never the API token. */
export const loginBodySchema = z.object({ token: z.string().min(1).max(512) }).strict();

/** `PATCH /api/sessions/:sessionId`: a new title. */
export const sessionPatchBodySchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();

/** `POST /api/sessions/:sessionId/fork`: fork after this turn (default: all of it). */
export const forkBodySchema = z.object({ atTurnId: idSchema.optional() }).strict();

/** `POST /api/sessions/:sessionId/turns/:turnId/restore`: what to put back. */
export const restoreBodySchema = z.object({ scope: z.enum(['session', 'files', 'all']) }).strict();

/** `POST /api/sessions/:sessionId/turns`: the prompt of a new turn. */
export const startTurnBodySchema = z.object({ prompt: z.string().trim().min(1).max(100_000) }).strict();

/** `POST /api/sessions`: a new session in one of the offered workspaces, with its first prompt. */
export const newSessionBodySchema = z
  .object({
    /** Exactly one of the paths `GET /api/workspaces` lists; never any other folder. */
    workspace: z.string().min(1).max(4096),
    prompt: z.string().trim().min(1).max(100_000),
  })
  .strict();

/** `POST /api/sessions/:sessionId/approvals/:approvalId`: the person's answer. */
export const approvalAnswerBodySchema = z.object({ answer: z.enum(['allow', 'deny', 'allow-session']) }).strict();

/** What a session is doing, as the list shows it. */
export const sessionStatusSchema = z.enum([
  'idle',
  'running',
  'completed',
  'cancelled',
  'failed',
  'incomplete',
  'step_limit',
  'interrupted',
]);

/** How a subagent's session was delegated (core's `session_delegation` record). */
export const delegationLinkSchema = z.object({
  sessionId: z.string(),
  turnId: z.string(),
  toolCallId: z.string(),
  kind: z.enum(['task', 'worktree', 'background']),
  status: z.string(),
});

/** A subagent of a session. */
export const childSessionSchema = z.object({
  sessionId: z.string(),
  kind: z.enum(['task', 'worktree', 'background']),
  status: z.string(),
  /** The delegated prompt, cut at 200 characters. */
  prompt: z.string(),
});

/** One session in the list and in `GET /api/sessions/:sessionId`. */
export const sessionSummarySchema = z.object({
  id: z.string(),
  workspaceRoot: z.string(),
  title: z.string().nullable(),
  /** The prompt of the session's first turn, cut at 200 characters; null before any turn. */
  firstPrompt: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  forkedAtTurnId: z.string().nullable(),
  createdAt: z.string(),
  lastActivityAt: z.string(),
  status: sessionStatusSchema,
  /** Whether this server process runs the session's current turn (so it can cancel it). */
  runningHere: z.boolean(),
  /** For a subagent's session: the session, turn and tool call that delegated it; else null. */
  delegatedBy: delegationLinkSchema.nullable(),
  /** The subagents this session delegated, oldest first. */
  children: z.array(childSessionSchema),
});

/** A page of events. `nextAfterSequence` is the `afterSequence` of the next page. */
export const eventPageSchema = z.object({
  events: z.array(sessionEventSchema),
  nextAfterSequence: z.number().int(),
  hasMore: z.boolean(),
  lastSequence: z.number().int(),
});

/** Every error answer. */
export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }).catchall(z.unknown()),
});

/** The inferred types of the schemas above. */
export type SessionSummary = z.output<typeof sessionSummarySchema>;
export type SessionStatus = z.output<typeof sessionStatusSchema>;
export type EventPage = z.output<typeof eventPageSchema>;
export type RestoreBody = z.output<typeof restoreBodySchema>;
export type ApprovalAnswerBody = z.output<typeof approvalAnswerBodySchema>;
export type NewSessionBody = z.output<typeof newSessionBodySchema>;

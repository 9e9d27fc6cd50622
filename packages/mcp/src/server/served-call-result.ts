import type { ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { ServedCallOutcome } from './served-session.js';
import { artifactUri } from './served-uris.js';

/** The structured part of every served result (the tools' `outputSchema`). */
export interface ServedStructuredResult {
  readonly status: ToolExecutionResult['status'];
  readonly code?: string;
  readonly retryable: boolean;
  readonly [key: string]: unknown;
}

/** The `outputSchema` every served tool declares. */
export const SERVED_OUTPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['success', 'error', 'denied', 'cancelled', 'unknown'] },
    code: { type: 'string', description: 'Stable reason for anything but a plain success.' },
    retryable: { type: 'boolean', description: 'Whether retrying unchanged can succeed.' },
    restorePoint: { type: 'string', description: 'The restore point holding the files this call changed.' },
    changedFiles: { type: 'array', items: { type: 'string' } },
    artifact: { type: 'object', description: 'Where the complete output is, when it was too large to send inline.' },
    exitCode: { type: 'integer' },
  },
  required: ['status', 'retryable'],
} as const);

type TextContent = { type: 'text'; text: string };
type ResourceLinkContent = {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType: string;
  description: string;
};

/** An MCP `tools/call` result. */
export interface ServedCallResult {
  readonly [key: string]: unknown;
  readonly content: (TextContent | ResourceLinkContent)[];
  readonly structuredContent: ServedStructuredResult;
  readonly isError: boolean;
}

/** A result from a status, a code and text (for the server's own tools). */
export function plainResult(
  status: ToolExecutionResult['status'],
  text: string,
  extra: { code?: string; retryable?: boolean; structured?: Record<string, unknown> } = {},
): ServedCallResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      ...extra.structured,
      status,
      ...(extra.code ? { code: extra.code } : {}),
      retryable: extra.retryable ?? false,
    },
    isError: status !== 'success',
  };
}

/**
 * Maps a runtime result onto MCP: the model-facing text as text content; status, code and
 * retryable (plus the restore point, changed files, exit code, artifact) as `structuredContent`;
 * `isError` for anything but success; output too large to send inline as a `resource_link` to
 * its artifact (readable with `read_artifact` or `resources/read`).
 */
export function servedCallResult(outcome: ServedCallOutcome): ServedCallResult {
  const { result } = outcome;
  const content: ServedCallResult['content'] = [{ type: 'text', text: result.content }];
  const structured: Record<string, unknown> = {};
  if (outcome.changedFiles.length > 0) {
    structured.restorePoint = outcome.restorePointId;
    structured.changedFiles = outcome.changedFiles.map((file) => file.path);
  }
  if (result.exitCode !== undefined) structured.exitCode = result.exitCode;
  if (result.artifact) {
    const uri = artifactUri(result.artifact.id);
    structured.artifact = { ...result.artifact, uri };
    content.push({
      type: 'resource_link',
      uri,
      name: `artifact ${result.artifact.id}`,
      mimeType: result.artifact.mediaType,
      description: `The complete output: ${result.artifact.byteLength} bytes, ${result.artifact.lineCount} lines. Read it in ranges with read_artifact, or whole (up to 1 MiB) with resources/read.`,
    });
  }
  return {
    content,
    structuredContent: {
      ...structured,
      status: result.status,
      ...(result.code ? { code: result.code } : {}),
      retryable: result.retryable === true,
    },
    isError: result.status !== 'success',
  };
}

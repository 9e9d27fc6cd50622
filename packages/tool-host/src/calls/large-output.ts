import type { ArtifactStore } from '@clawsmith/artifacts';
import { headAndTail, type ToolExecutionResult } from '@clawsmith/tool-protocol';

/** Content kept inline in a tool result by default (UTF-8 bytes); beyond it, an artifact. */
export const DEFAULT_INLINE_CONTENT_LIMIT = 50_000;

/** Where and how {@link keepInlineBounded} keeps a large output. */
export interface InlineBound {
  /** UTF-8 bytes of content kept inline; default {@link DEFAULT_INLINE_CONTENT_LIMIT}. */
  readonly limit?: number;
  /** Where the complete output goes; without one, the middle of a large output is lost. */
  readonly artifacts?: ArtifactStore;
  /**
   * Whether the caller's model can call `read_artifact`: only then does a preview name it.
   * Without it the preview still gives the artifact id (the host's owner can read it).
   */
  readonly readArtifactTool: boolean;
  readonly sessionId: string;
  readonly toolCallId: string;
}

function withArtifactNote(
  result: ToolExecutionResult,
  limit: number,
  id: string,
  readable: boolean,
): ToolExecutionResult {
  const preview = headAndTail(result.content, limit - 200);
  const how = readable
    ? `read it with read_artifact`
    : `this preview is all there is to see here (the host offers no tool that reads artifacts)`;
  return {
    ...result,
    content: `${preview}\n[Inline output cut to ${limit} bytes; the complete output is artifact ${id}: ${how}.]`,
  };
}

/**
 * The large-output rule: content within the limit stays as it is; a result whose tool already
 * stored its complete output keeps that artifact and only its inline text is cut; any other
 * large content is stored whole as an artifact and replaced by a head/tail preview. Never throws:
 * when the store fails, only the preview remains and the content says so.
 */
export async function keepInlineBounded(result: ToolExecutionResult, bound: InlineBound): Promise<ToolExecutionResult> {
  const limit = bound.limit ?? DEFAULT_INLINE_CONTENT_LIMIT;
  if (Buffer.byteLength(result.content, 'utf8') <= limit) return result;
  // The tool already stored its complete output (a command log, say): keep that reference
  // rather than storing a copy of the tool's own preview.
  if (result.artifact) return withArtifactNote(result, limit, result.artifact.id, bound.readArtifactTool);
  try {
    if (bound.artifacts && bound.readArtifactTool) {
      const stored = await bound.artifacts.externalize(result.content, {
        sessionId: bound.sessionId,
        toolCallId: bound.toolCallId,
        threshold: limit,
      });
      return { ...result, content: stored.content, ...(stored.artifact ? { artifact: stored.artifact } : {}) };
    }
    if (bound.artifacts) {
      const artifact = await bound.artifacts.write(result.content, {
        sessionId: bound.sessionId,
        toolCallId: bound.toolCallId,
      });
      return { ...withArtifactNote(result, limit, artifact.id, false), artifact };
    }
  } catch {
    return {
      ...result,
      content: `${headAndTail(result.content, limit)}\n[The artifact store failed to keep the full output; only this preview remains.]`,
    };
  }
  return {
    ...result,
    content: `${headAndTail(result.content, limit)}\n[The output was ${result.content.length} characters; no artifact store is configured, so the middle is gone.]`,
  };
}

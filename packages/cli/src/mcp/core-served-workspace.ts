import { undoConflictsOf } from '@clawsmith/core';
import type { ServedRestorePoint, ServedSession, ServedUndoOutcome, ServedWorkspace } from '@clawsmith/mcp';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { AgentRuntime } from '../commands/agent-runtime.js';

/** The most of an artifact `resources/read` returns (the rest through `read_artifact` ranges). */
const ARTIFACT_RESOURCE_BYTES = 1024 * 1024;

async function restorePointsOf(runtime: AgentRuntime, sessionId: string): Promise<ServedRestorePoint[]> {
  const summaries = await runtime.core.listCheckpoints(sessionId);
  const turns = new Map((await runtime.core.listTurns(sessionId)).map((turn) => [turn.turnId, turn]));
  return Promise.all(
    summaries.map(async (summary) => {
      const point = await runtime.home.checkpoints.getRestorePoint(sessionId, summary.turnId);
      return {
        restorePointId: summary.restorePointId,
        sequence: summary.sequence,
        label: turns.get(summary.turnId)?.prompt ?? '',
        createdAt: summary.createdAt,
        undone: summary.undone,
        files: point.manifest.files
          .filter((file) => file.change !== 'unchanged')
          .map((file) => ({
            path: file.path,
            change: file.change,
            linesAdded: file.linesAdded,
            linesRemoved: file.linesRemoved,
            binary: file.binary,
            undoable: file.undoable,
          })),
        notes: point.manifest.notes,
      };
    }),
  );
}

async function turnOf(runtime: AgentRuntime, sessionId: string, restorePointId: string): Promise<string> {
  const point = (await runtime.core.listCheckpoints(sessionId)).find(
    (candidate) => candidate.restorePointId === restorePointId,
  );
  if (!point) throw new ClawsmithError('checkpoint_not_found', `This session has no restore point ${restorePointId}.`);
  return point.turnId;
}

async function undo(runtime: AgentRuntime, sessionId: string, restorePointId: string): Promise<ServedUndoOutcome> {
  const turnId = await turnOf(runtime, sessionId, restorePointId);
  try {
    const restored = await runtime.core.restore(sessionId, turnId, 'files');
    return { status: 'undone', restoredPaths: restored.restoredPaths };
  } catch (error) {
    if (ClawsmithError.isInstance(error) && error.code === 'checkpoint_already_undone')
      return { status: 'already_undone' };
    const conflicts = undoConflictsOf(error);
    if (conflicts !== undefined)
      return { status: 'conflict', conflicts: conflicts.map(({ path, reason }) => ({ path, reason })) };
    throw error;
  }
}

/**
 * The served workspace of `clawsmith mcp serve`: each MCP connection is a new clawsmith session
 * on this runtime (visible in `clawsmith sessions` and the web page), its calls run through
 * `AgentCore.callTool`, its restore points and artifacts are the session's.
 */
export function coreServedWorkspace(
  runtime: AgentRuntime,
  workspaceRoot: string,
  permissionMode: string,
): ServedWorkspace {
  return {
    workspaceRoot,
    permissionMode,
    async openSession(client): Promise<ServedSession> {
      const clientName = `${client.name} ${client.version}`.trim().slice(0, 60);
      const session = await runtime.core.createSession({ workspaceRoot, title: `MCP: ${clientName}` });
      const sessionId = session.id;
      return {
        sessionId,
        tools: () => runtime.core.describeTools(sessionId),
        async call(name, args, options) {
          // The call's progress as core records it: calls of a session never overlap, so every
          // tool.progress of this session while the call runs is the call's.
          const { onProgress } = options;
          const stopFollowing = onProgress
            ? runtime.core.subscribe((event) => {
                if (event.sessionId !== sessionId || event.type !== 'tool.progress') return;
                onProgress({
                  progress: event.progress,
                  ...(event.total !== undefined ? { total: event.total } : {}),
                  ...(event.message !== undefined ? { message: event.message } : {}),
                });
              })
            : undefined;
          // The call's turn continues the client's trace, when it sent one in `_meta`.
          if (options.traceContext) runtime.telemetry.continueTrace(sessionId, options.traceContext);
          try {
            return await runtime.core.callTool({
              sessionId,
              name,
              arguments: args,
              signal: options.signal,
              caller: `MCP ${clientName}`,
              approvalHandler: options.approver,
              unattendedReason: options.unattendedReason,
            });
          } finally {
            stopFollowing?.();
          }
        },
        restorePoints: () => restorePointsOf(runtime, sessionId),
        async diff(restorePointId, path) {
          const diff = await runtime.core.diff(sessionId, await turnOf(runtime, sessionId, restorePointId), path);
          return { path, binary: diff.binary, unifiedDiff: diff.unifiedDiff, truncated: diff.diffTruncated };
        },
        undo: (restorePointId) => undo(runtime, sessionId, restorePointId),
        async readArtifact(artifactId) {
          const info = await runtime.home.artifacts.info(sessionId, artifactId);
          const chunks: Uint8Array[] = [];
          let offset = 0;
          while (offset < Math.min(info.byteLength, ARTIFACT_RESOURCE_BYTES)) {
            const read = await runtime.home.artifacts.readBytes(sessionId, artifactId, {
              offset,
              length: Math.min(ARTIFACT_RESOURCE_BYTES - offset, runtime.home.artifacts.limits.maxBytes),
            });
            if (read.bytes.byteLength === 0) break;
            chunks.push(read.bytes);
            offset = read.endOffset;
          }
          return {
            mediaType: info.mediaType,
            text: Buffer.concat(chunks).toString('utf8'),
            byteLength: info.byteLength,
            truncated: offset < info.byteLength,
          };
        },
        // A closed connection (stdin ended, HTTP DELETE) ends the commands it started in the background.
        close: async () => void (await runtime.endSessionCommands(sessionId)),
      };
    },
  };
}

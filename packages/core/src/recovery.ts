import type { AssistantModelMessage, ToolModelMessage } from '@clawsmith/providers';
import { ClawsmithError, TOOL_RESULT_CODES, type ToolResultMetadata } from '@clawsmith/tool-protocol';
import type { CoreServices } from './core-services.js';
import type { TurnRecord } from './store/session-records.js';
import { claimSession, turnOwnerIsAlive, whileHeld } from './turn-claims/session-claim.js';

/** The session's running turns whose owner is gone (or whose lease ran out). */
async function deadTurns(services: CoreServices, sessionId: string): Promise<TurnRecord[]> {
  const dead: TurnRecord[] = [];
  for (const turn of await services.store.listRunningTurns(sessionId))
    if (!(await turnOwnerIsAlive(services, turn))) dead.push(turn);
  return dead;
}

function interruptedResult(
  toolName: string,
  started: boolean,
  sideEffect: boolean,
): { content: string; metadata: ToolResultMetadata } {
  if (!started) {
    return {
      content: `The process stopped before ${toolName} ran; it did not run. Call it again if it is still needed.`,
      metadata: { version: 1, status: 'error', code: TOOL_RESULT_CODES.interrupted, retryable: false },
    };
  }
  if (sideEffect) {
    return {
      content: `The process stopped while ${toolName} was running, so whether it took effect is unknown. It will not be replayed automatically: check the workspace (or the outside service) before doing anything that depends on it.`,
      metadata: { version: 1, status: 'unknown', code: TOOL_RESULT_CODES.interrupted, retryable: false },
    };
  }
  return {
    content: `The process stopped while ${toolName} was running; it read nothing that can be trusted. Call it again if its result is still needed.`,
    metadata: { version: 1, status: 'error', code: TOOL_RESULT_CODES.interrupted, retryable: false },
  };
}

/**
 * Closes what a dead process left open in a session: every started call without a completion
 * becomes `unknown`/`interrupted` (side effects) or `error`/`interrupted` (reads), every
 * assistant tool call without a result gets one, and a turn left running is marked
 * interrupted, and artifacts its calls left open are sealed at their last committed length.
 * Nothing is replayed. A turn is dead when its process is gone on this machine, or when its
 * claim's lease ran out (another machine's process stopped renewing it). Unless this core holds
 * the session already (a turn opening), recovery claims it for the time it recovers, so two
 * processes never close the same turn twice; when a live process holds it, that process
 * recovers instead. Returns the number of calls it closed.
 */
export async function recoverSession(services: CoreServices, sessionId: string): Promise<number> {
  await services.subagents?.recoverChildren(sessionId);
  if (services.runningSessions.has(sessionId)) return closeDeadTurns(services, sessionId);
  if ((await deadTurns(services, sessionId)).length === 0) return 0;
  let held;
  try {
    held = await claimSession(
      services,
      sessionId,
      `Session ${sessionId} is being recovered or run by another process.`,
    );
  } catch (error) {
    if (ClawsmithError.isInstance(error) && error.code === 'turn_in_progress') return 0;
    throw error;
  }
  return whileHeld(held, () => closeDeadTurns(services, sessionId));
}

async function closeDeadTurns(services: CoreServices, sessionId: string): Promise<number> {
  const { store } = services;
  const running = await deadTurns(services, sessionId);
  if (running.length === 0) return 0;
  let closed = 0;
  let sealedArtifacts = 0;
  for (const turn of running) {
    const events = await store.listEvents(sessionId, { turnId: turn.turnId });
    const started = new Map<string, { toolName: string; sideEffect: boolean }>();
    const completed = new Map<string, { content: string; metadata: ToolResultMetadata }>();
    for (const event of events) {
      if (event.type === 'tool.started')
        started.set(event.toolCallId, { toolName: event.toolName, sideEffect: event.sideEffect });
      if (event.type === 'tool.completed')
        completed.set(event.toolCallId, { content: event.output, metadata: event.result });
    }
    const messages = await store.listMessages(sessionId);
    const answered = new Set(
      messages
        .filter((message): message is ToolModelMessage => message.role === 'tool')
        .map((message) => message.toolCallId),
    );
    const lastAssistant = [...messages]
      .reverse()
      .find((message): message is AssistantModelMessage => message.role === 'assistant');
    const missing: ToolModelMessage[] = [];
    for (const call of lastAssistant?.toolCalls ?? []) {
      if (answered.has(call.id)) continue;
      const known = completed.get(call.id);
      if (known) {
        // It completed before the crash; only its message was not written yet.
        missing.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: known.content,
          toolResult: known.metadata,
        });
        continue;
      }
      const start = started.get(call.id);
      const { content, metadata } = interruptedResult(call.name, start !== undefined, start?.sideEffect ?? false);
      await store.appendEvent(sessionId, {
        type: 'tool.completed',
        turnId: turn.turnId,
        toolCallId: call.id,
        toolName: call.name,
        result: metadata,
        status: metadata.status,
        output: content,
        recovered: true,
      });
      missing.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, toolResult: metadata });
      closed += 1;
    }
    await store.appendMessages(sessionId, turn.turnId, missing);
    // A command log the dead process was appending to stays readable up to its last commit.
    const callIds = new Set([...started.keys(), ...(lastAssistant?.toolCalls ?? []).map((call) => call.id)]);
    sealedArtifacts += (await services.artifacts?.sealAbandoned(sessionId, [...callIds])) ?? 0;
    await services.checkpoints.completeTurn(sessionId, turn.turnId);
    await store.completeTurn(sessionId, turn.turnId, 'interrupted');
    await store.appendEvent(sessionId, {
      type: 'turn.completed',
      turnId: turn.turnId,
      status: 'interrupted',
      recovered: true,
    });
  }
  await store.appendEvent(sessionId, {
    type: 'session.recovered',
    interruptedCalls: closed,
    sealedArtifacts,
    turns: running.map((turn) => turn.turnId),
  });
  return closed;
}

import { describe, expect, it } from 'vitest';
import { isSessionEvent, readSessionEvent, sessionEventSchema, type SessionEvent } from './index.js';

const envelope = { sessionId: 's1', turnId: 't1', sequence: 7, createdAt: '2026-12-06T06:45:00.000Z' };

describe(readSessionEvent, () => {
  it('reads a stored tool completion as its typed event, fields intact', () => {
    const stored = {
      ...envelope,
      type: 'tool.completed',
      toolCallId: 'c5',
      toolName: 'run_command',
      result: { version: 1, status: 'error', code: 'command_failed', retryable: false, exitCode: 3, durationMs: 41 },
      status: 'error',
      output: 'fail\nexit code 3',
    };
    const event = readSessionEvent(stored);
    expect(event).toEqual(stored);
    if (!isSessionEvent(event, 'tool.completed')) throw new Error('not a completion');
    // Typed access, no cast: the compiler knows the fields of a completion.
    expect([event.result.code, event.result.exitCode, event.output.split('\n')[1]]).toEqual([
      'command_failed',
      3,
      'exit code 3',
    ]);
  });

  it('reads the kinds that need a failure or a background task, as written by core', () => {
    const stored = [
      {
        ...envelope,
        type: 'request.failed',
        requestId: 'r1',
        code: 'provider_bad_request',
        message: 'too long',
        retryable: false,
      },
      { ...envelope, type: 'retention.failed', reason: 'quota', message: 'disk full' },
      {
        ...envelope,
        type: 'background.notified',
        tasks: [{ taskId: 'child-1', prompt: 'look', result: { status: 'completed', summary: 'ok', steps: 1 } }],
      },
    ];
    expect(stored.map((event) => readSessionEvent(event))).toEqual(stored);
  });

  it('drops fields a newer version added, keeping the event readable', () => {
    const event = readSessionEvent({ ...envelope, type: 'todos.updated', todos: [], addedLater: { x: 1 } });
    expect(event).toEqual({ ...envelope, type: 'todos.updated', todos: [] });
  });

  it('reads a type it does not know as event.unrecognized, with the row kept and the reason', () => {
    const event = readSessionEvent({ ...envelope, type: 'hologram.projected', depth: 3 });
    expect(event).toEqual({
      ...envelope,
      type: 'event.unrecognized',
      recordedType: 'hologram.projected',
      payload: { depth: 3 },
      problem: 'no event type "hologram.projected" in this version of clawsmith',
    });
  });

  it('reads a known type with broken fields as event.unrecognized, naming the field', () => {
    const event = readSessionEvent({
      ...envelope,
      type: 'tool.decision',
      toolCallId: 'c1',
      toolName: 'x',
      stage: 'hook',
      action: 'maybe',
      reason: 'r',
    });
    expect(event.type).toBe('event.unrecognized');
    expect(event.type === 'event.unrecognized' && event.problem).toMatch(/^action: /);
  });
});

describe('sessionEventSchema', () => {
  it('accepts what readers get (known events and the stand-in) and rejects an event without its envelope', () => {
    const events: SessionEvent[] = [
      readSessionEvent({ ...envelope, type: 'turn.started', prompt: 'go', restorePointId: 's1/t1' }),
      readSessionEvent({ ...envelope, type: 'later.kind' }),
    ];
    expect(events.map((event) => sessionEventSchema.safeParse(event).success)).toEqual([true, true]);
    expect(sessionEventSchema.safeParse({ type: 'turn.started', prompt: 'go', restorePointId: 'p' }).success).toBe(
      false,
    );
  });
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ToolResultRecord } from '@clawsmith/session-protocol';
import { recordedEvent } from '../__fixtures__/recorded-event.js';
import { formatTodos, summarizeEvent } from './event-summary.js';
import { terminalStyle } from './terminal-style.js';

const plain = terminalStyle(Object.assign(new PassThrough(), { isTTY: false }), {});

describe('summarizeEvent', () => {
  it('shows a tool start and its completion with status and code on one line each', () => {
    const started = recordedEvent({
      type: 'tool.started',
      toolCallId: 'c1',
      toolName: 'run_command',
      summary: 'npm test',
      risk: 'execute',
      capabilities: ['process.spawn'],
      sideEffect: true,
    });
    expect(summarizeEvent(started, plain)).toBe('  ▸ run_command npm test');
    const denied = summarizeEvent(
      recordedEvent({
        type: 'tool.completed',
        toolCallId: 'c1',
        toolName: 'run_command',
        status: 'denied',
        output: 'sudo is never run.\nDetails',
        result: { version: 1, status: 'denied', code: 'command_refused' },
      }),
      plain,
    );
    expect(denied).toBe('  ⊘ denied (command_refused) run_command\n    sudo is never run. Details');
  });

  it('shows a command body tail and the artifact, sanitised', () => {
    const summary = summarizeEvent(
      recordedEvent({
        type: 'tool.completed',
        toolCallId: 'c1',
        toolName: 'run_command',
        status: 'success',
        output: 'one\ntwo',
        result: {
          version: 1,
          status: 'success',
          display: { kind: 'command', title: 'Ran \u001b]0;title\u0007ls', body: 'one\n\u001b[31mtwo\u001b[0m\n' },
          artifact: { id: 'art_1', byteLength: 10, lineCount: 2, mediaType: 'text/plain' },
        },
      }),
      plain,
    )!;
    expect(summary).toContain('✓ success run_command Ran ls');
    expect(summary).toContain('output kept as artifact art_1 (10 bytes, 2 lines)');
    expect(summary).toContain('│ two');
    expect(summary).not.toContain('\u001b');
  });

  it("shows a command's exit code and duration, and says when it timed out or was cancelled", () => {
    const command = (result: Omit<ToolResultRecord, 'version' | 'display'>) =>
      summarizeEvent(
        recordedEvent({
          type: 'tool.completed',
          toolCallId: 'c1',
          toolName: 'run_command',
          status: result.status,
          output: '$ node test.mjs\nexit code 3',
          result: { version: 1, display: { kind: 'command', title: '$ node test.mjs', body: 'boom\n' }, ...result },
        }),
        plain,
      )!;
    const failed = command({ status: 'error', code: 'command_failed', exitCode: 3, durationMs: 42 });
    expect(failed.split('\n')[0]).toBe('  ✗ error (command_failed) run_command $ node test.mjs · exit 3 · 42 ms');
    expect(failed).toContain('│ boom');
    expect(command({ status: 'success', exitCode: 0, durationMs: 1_500 }).split('\n')[0]).toBe(
      '  ✓ success run_command $ node test.mjs · exit 0 · 1.5 s',
    );
    expect(command({ status: 'error', code: 'command_timeout', durationMs: 2_000 }).split('\n')[0]).toBe(
      '  ✗ error (command_timeout) run_command $ node test.mjs · timed out after 2.0 s',
    );
    expect(command({ status: 'cancelled', code: 'cancelled', durationMs: 300 }).split('\n')[0]).toBe(
      '  ◌ cancelled (cancelled) run_command $ node test.mjs · cancelled after 300 ms',
    );
  });

  it('skips bookkeeping events', () => {
    expect(summarizeEvent(recordedEvent({ type: 'request.started', requestId: 'r1', step: 1 }), plain)).toBeUndefined();
  });
});

describe('formatTodos', () => {
  it('marks each status', () => {
    expect(
      formatTodos(
        [
          { content: 'a', status: 'completed' },
          { content: 'b', status: 'in_progress' },
          { content: 'c', status: 'pending' },
        ],
        plain,
      ),
    ).toBe('  [x] a\n  [~] b\n  [ ] c');
    expect(formatTodos([], plain)).toBe('(no todos)');
  });
});

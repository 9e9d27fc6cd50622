import { describe, expect, it } from 'vitest';
import { transcriptItems } from './transcript-items';
import { byteSize, duration, toolDuration, toolSize } from './tool-summary';
import type { SessionEvent } from '../api/api-types';

const envelope = (sequence: number, createdAt: string) => ({ sessionId: 's1', turnId: 't1', sequence, createdAt });

function toolItem(output: string, result: Record<string, unknown>) {
  const events = [
    {
      ...envelope(1, '2026-12-06T10:00:00.000Z'),
      type: 'tool.started',
      toolCallId: 'c1',
      toolName: 'read_file',
      summary: 'a.txt',
    },
    {
      ...envelope(2, '2026-12-06T10:00:02.500Z'),
      type: 'tool.completed',
      toolCallId: 'c1',
      toolName: 'read_file',
      output,
      result: { version: 1, status: 'success', ...result },
    },
  ] as unknown as SessionEvent[];
  const item = transcriptItems(events)[0];
  if (item?.kind !== 'tool') throw new Error('expected a tool item');
  return item;
}

describe('toolSize', () => {
  it('counts the output lines and UTF-8 bytes', () => {
    expect(toolSize(toolItem('hello\nworld\n', {}))).toBe('2 lines · 12 B');
    expect(toolSize(toolItem('é', {}))).toBe('1 line · 2 B');
    expect(toolSize(toolItem('', {}))).toBe('no output');
  });

  it('uses the artifact size when the output went to one', () => {
    const artifact = { id: 'a1', mediaType: 'text/plain', byteLength: 3 * 1024 * 1024, lineCount: 40_000 };
    expect(toolSize(toolItem('pointer', { artifact }))).toBe('40,000 lines · 3.0 MB');
  });
});

describe('toolDuration', () => {
  it("prefers the process's own duration, else the time between the call's events", () => {
    expect(toolDuration(toolItem('x', { durationMs: 850 }))).toBe('850 ms');
    expect(toolDuration(toolItem('x', {}))).toBe('2.5 s');
  });

  it('formats minutes and bytes', () => {
    expect(duration(125_000)).toBe('2 min 5 s');
    expect(byteSize(1536)).toBe('1.5 KB');
  });
});

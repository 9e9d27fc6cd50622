import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { recordedEvent } from '../__fixtures__/recorded-event.js';
import { progressText } from './progress-text.js';
import { terminalStyle } from './terminal-style.js';
import { TranscriptPrinter } from './transcript-printer.js';

function capture(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const printer = new TranscriptPrinter(stream, terminalStyle(stream, {}));
  // Colours off for matching; the line's own control sequence (`\r\u001b[2K`) stays.
  // eslint-disable-next-line no-control-regex
  return { printer, output: () => written.replace(/\u001b\[[0-9;]*m/g, '') };
}

const started = recordedEvent({
  type: 'tool.started',
  toolCallId: 'c1',
  toolName: 'mcp__everything__long',
  summary: 'steps 10',
  risk: 'execute',
  capabilities: ['network'],
  sideEffect: true,
});
const progress = (value: number, message?: string) =>
  recordedEvent({
    type: 'tool.progress',
    toolCallId: 'c1',
    toolName: 'mcp__everything__long',
    progress: value,
    total: 10,
    ...(message ? { message } : {}),
  });
const completed = recordedEvent({
  type: 'tool.completed',
  toolCallId: 'c1',
  toolName: 'mcp__everything__long',
  result: { version: 1, status: 'success' },
  status: 'success',
  output: 'done',
});

describe(progressText, () => {
  it('says how far a call has come, with its message on one safe line', () => {
    expect(progressText({ progress: 3, total: 10, message: 'copying' })).toBe('3/10 · copying');
    expect(progressText({ progress: 2.25 })).toBe('2.3');
    expect(progressText({ progress: 1, total: 0, message: 'a\nb\u001b[31mred\u001b]0;title\u0007' })).toBe(
      '1 · a bred',
    );
    expect(progressText({ progress: Number.NaN })).toBeUndefined();
  });
});

describe('the running call’s progress on a terminal', () => {
  it('shows the latest progress on the spinner line, redrawn in place, and drops it when the call completes', async () => {
    const { printer, output } = capture(true);
    printer.event(started);
    printer.event(progress(3, 'copying'));
    await sleep(400);
    // eslint-disable-next-line no-control-regex
    expect(output()).toMatch(/\r\u001b\[2K {2}\S+ mcp__everything__long steps 10 3\/10 · copying \d+\.\ds/);
    printer.event(progress(7));
    await sleep(250);
    const lastFrame = output().split('\r\u001b[2K').at(-1)!;
    expect(lastFrame).toContain('mcp__everything__long steps 10 7/10 ');
    // Progress never adds a line of its own: only the call's started line ended with a newline.
    expect(output().match(/\n/g)).toHaveLength(1);
    printer.event(completed);
    const afterCompletion = output().length;
    await sleep(300);
    expect(output().slice(afterCompletion)).toBe('');
    expect(output()).toContain('✓ success mcp__everything__long');
    printer.stop();
  });

  it('prints nothing for progress when the output is not a terminal', async () => {
    const { printer, output } = capture(false);
    printer.event(started);
    for (let step = 1; step <= 10; step += 1) printer.event(progress(step, `step ${step}`));
    await sleep(400);
    printer.event(completed);
    printer.stop();
    expect(output()).not.toContain('/10');
    expect(output().trim().split('\n')).toHaveLength(2);
  });
});

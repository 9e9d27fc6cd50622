import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { recordedEvent } from '../__fixtures__/recorded-event.js';
import { terminalStyle } from './terminal-style.js';
import { TranscriptPrinter } from './transcript-printer.js';

function capture(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const printer = new TranscriptPrinter(stream, terminalStyle(stream, {}));
  return { printer, output: () => written };
}

const requestStarted = () => recordedEvent({ type: 'request.started', requestId: 'r1', step: 1 });

describe('the thinking spinner', () => {
  it('shows while the model is asked and has not answered, on a terminal, and stops at its first text', async () => {
    const { printer, output } = capture(true);
    printer.event(requestStarted());
    await sleep(450);
    expect(output()).toMatch(/thinking \S*\d+\.\ds/);
    printer.textDelta('Hello');
    const afterText = output().length;
    await sleep(300);
    // Nothing redraws once the answer streams: the line was cleared and only the text follows.
    expect(output().slice(afterText)).toBe('');
    expect(output().endsWith('\r\u001b[2KHello')).toBe(true);
    printer.stop();
  });

  it('stops when the request ends without text (a tool call) and a running tool takes over', async () => {
    const { printer, output } = capture(true);
    printer.event(requestStarted());
    printer.event(
      recordedEvent({ type: 'request.completed', requestId: 'r1', finishReason: 'tool-calls', toolCallCount: 1 }),
    );
    await sleep(400);
    expect(output()).not.toContain('thinking');
    printer.event(
      recordedEvent({
        type: 'tool.started',
        toolCallId: 'c1',
        toolName: 'run_command',
        summary: 'npm test',
        risk: 'execute',
        capabilities: ['process.spawn'],
        sideEffect: true,
      }),
    );
    await sleep(400);
    expect(output()).toContain('run_command npm test');
    expect(output()).not.toContain('thinking');
    printer.stop();
  });

  it('never appears when the output is not a terminal', async () => {
    const { printer, output } = capture(false);
    printer.event(requestStarted());
    await sleep(450);
    expect(output()).toBe('');
    printer.stop();
  });
});

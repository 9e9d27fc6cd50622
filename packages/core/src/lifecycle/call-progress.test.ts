import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NewSessionEventOf } from '@clawsmith/session-protocol';
import type { NewSessionEvent } from '../store/session-records.js';
import { PROGRESS_BOUNDS, callProgress } from './call-progress.js';

function recorded(write?: (event: NewSessionEvent) => Promise<unknown>) {
  const events: NewSessionEventOf<'tool.progress'>[] = [];
  const progress = callProgress({
    turnId: 't1',
    toolCallId: 'c1',
    toolName: 'slow_tool',
    write:
      write ??
      (async (event) => {
        if (event.type !== 'tool.progress') throw new Error(`unexpected ${event.type}`);
        events.push(event);
      }),
  });
  return { events, progress, report: progress.report as (value: unknown) => void };
}

const values = (events: readonly NewSessionEventOf<'tool.progress'>[]) =>
  events.map(({ progress, total, message }) => ({ progress, total, message }));

describe(callProgress, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first report at once as a tool.progress event of the call', async () => {
    const { events, progress } = recorded();
    progress.report({ progress: 1, total: 10, message: 'indexing' });
    await progress.finish();
    expect(events).toEqual([
      {
        type: 'tool.progress',
        turnId: 't1',
        toolCallId: 'c1',
        toolName: 'slow_tool',
        progress: 1,
        total: 10,
        message: 'indexing',
      },
    ]);
  });

  it('keeps only the latest report of an interval and writes it when the interval ends', async () => {
    const { events, progress } = recorded();
    progress.report({ progress: 1 });
    for (let step = 2; step <= 5; step += 1) progress.report({ progress: step, total: 5 });
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_BOUNDS.intervalMs / 2));
    expect(values(events)).toEqual([{ progress: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_BOUNDS.intervalMs / 2 + 150));
    await progress.finish();
    expect(values(events)).toEqual([{ progress: 1 }, { progress: 5, total: 5 }]);
  });

  it('drops a report still waiting for its interval when the call finishes, and every report after', async () => {
    const { events, progress } = recorded();
    progress.report({ progress: 1 });
    progress.report({ progress: 2 });
    await progress.finish();
    progress.report({ progress: 3 });
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_BOUNDS.intervalMs + 100));
    expect(values(events)).toEqual([{ progress: 1 }]);
  });

  it.each([
    ['NaN', { progress: Number.NaN }],
    ['Infinity', { progress: Number.POSITIVE_INFINITY }],
    ['a string', { progress: '3' }],
    ['no progress', { total: 3 }],
    ['null', null],
    ['a number', 3],
    ['undefined', undefined],
  ])('ignores a report with %s as progress, without throwing', async (_label, report) => {
    const { events, progress, report: send } = recorded();
    expect(() => send(report)).not.toThrow();
    await progress.finish();
    expect(events).toEqual([]);
  });

  it('clamps negative progress to 0 and leaves out a total that is not a positive number', async () => {
    for (const total of [Number.NaN, 0, -4, '10', Number.POSITIVE_INFINITY]) {
      const { events, progress, report } = recorded();
      report({ progress: -5, total, message: 42 });
      await progress.finish();
      expect(values(events)).toEqual([{ progress: 0 }]);
    }
  });

  it('never lets progress go backwards: a smaller value keeps the last one', async () => {
    vi.useFakeTimers();
    const { events, progress } = recorded();
    progress.report({ progress: 7, total: 10 });
    vi.advanceTimersByTime(PROGRESS_BOUNDS.intervalMs);
    progress.report({ progress: 3, total: 10, message: 'restarted?' });
    await progress.finish();
    expect(values(events)).toEqual([
      { progress: 7, total: 10 },
      { progress: 7, total: 10, message: 'restarted?' },
    ]);
  });

  it('cuts a 1 MB message to 200 characters, without splitting a character', async () => {
    const { events, progress } = recorded();
    progress.report({ progress: 1, message: '😀'.repeat(512 * 1024) });
    await progress.finish();
    const message = String(events[0]?.message);
    expect(Array.from(message)).toHaveLength(PROGRESS_BOUNDS.messageCharacters);
    expect(message.endsWith('😀…')).toBe(true);
  });

  it('survives a failing write: the call goes on, later reports are still written, finish resolves', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const events: NewSessionEventOf<'tool.progress'>[] = [];
    const { progress } = recorded(async (event) => {
      attempts += 1;
      if (attempts === 1) throw new Error('database is locked');
      if (event.type === 'tool.progress') events.push(event);
    });
    progress.report({ progress: 1 });
    vi.advanceTimersByTime(PROGRESS_BOUNDS.intervalMs);
    progress.report({ progress: 2 });
    await expect(progress.finish()).resolves.toBeUndefined();
    expect(values(events)).toEqual([{ progress: 2 }]);
  });

  it('slows down after a minute of reports and stops at the per-call bound', async () => {
    vi.useFakeTimers();
    const { events, progress } = recorded();
    // A tool reporting every 100 ms for two hours.
    for (let tick = 1; tick <= 72_000; tick += 1) {
      progress.report({ progress: tick });
      vi.advanceTimersByTime(100);
    }
    await progress.finish();
    expect(events).toHaveLength(PROGRESS_BOUNDS.eventsPerCall);
    const steps = events.map((event) => Number(event.progress));
    // Full rate: one event per 500 ms, i.e. every fifth report.
    expect(steps[2]! - steps[1]!).toBe(PROGRESS_BOUNDS.intervalMs / 100);
    const last = steps.length - 1;
    expect(steps[last]! - steps[last - 1]!).toBe(PROGRESS_BOUNDS.slowIntervalMs / 100);
  });
});

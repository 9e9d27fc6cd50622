import { describe, expect, it } from 'vitest';
import { eitherSignal } from './either-signal.js';

describe(eitherSignal, () => {
  it('aborts when either signal does, with that signal’s reason', () => {
    for (const which of [0, 1]) {
      const sources = [new AbortController(), new AbortController()];
      const { signal } = eitherSignal(sources[0]!.signal, sources[1]!.signal);
      expect(signal.aborted).toBe(false);
      sources[which]!.abort(`reason ${which}`);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe(`reason ${which}`);
    }
  });

  it('starts aborted when a signal already is', () => {
    const aborted = AbortSignal.abort('gone');
    expect(eitherSignal(new AbortController().signal, aborted).signal.reason).toBe('gone');
  });

  it('after release, aborting a source no longer reaches it', () => {
    const first = new AbortController();
    const second = new AbortController();
    const { signal, release } = eitherSignal(first.signal, second.signal);
    release();
    first.abort();
    second.abort();
    expect(signal.aborted).toBe(false);
  });
});

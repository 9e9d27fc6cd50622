import { describe, expect, it } from 'vitest';
import { isInterruptedOverwrite } from './interrupted-overwrite.js';

const bytes = (text: string) => Buffer.from(text);

/** Every state an in-place write of `target` over `written` passes through, as the kernel leaves it. */
function statesOf(target: string, written: string): string[] {
  const states: string[] = [];
  for (let cut = 0; cut <= target.length; cut += 1)
    states.push(cut < written.length ? target.slice(0, cut) + written.slice(cut) : target.slice(0, cut));
  return states;
}

describe(isInterruptedOverwrite, () => {
  it('recognises every state a write cut short leaves, over shorter, longer and equal old bytes', () => {
    for (const [target, written] of [
      ['the earlier text\n', 'the agent wrote a longer text\n'],
      ['a much longer earlier text than the agent left\n', 'short\n'],
      ['same length A\n', 'same length B\n'],
      ['', 'agent\n'],
      ['earlier\n', ''],
    ] as const)
      for (const state of statesOf(target, written))
        expect(isInterruptedOverwrite(bytes(state), bytes(target), bytes(written)), JSON.stringify(state)).toBe(true);
  });

  it("refuses a person's edit: other bytes, an insertion, a file cut or grown by someone", () => {
    const target = bytes('line one\nline two\n');
    const written = bytes('line one\nline two\nagent line\n');
    for (const edit of [
      'line one\nline two\nagent line\nperson line\n',
      'person\n',
      'line one\nPERSON\nline two\nagent line\n',
      'line one\nline two\nagent',
      'line one\nline twX\nagent line\n',
      '',
    ])
      expect(isInterruptedOverwrite(bytes(edit), target, written), JSON.stringify(edit)).toBe(false);
  });
});

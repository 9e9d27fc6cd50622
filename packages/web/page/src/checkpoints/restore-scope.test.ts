import { describe, expect, it } from 'vitest';
import type { TurnSummary } from '../api/api-types';
import { restoreConsequence, restorePlan } from './restore-scope';

function turn(ordinal: number, paths: readonly string[], undone = false, sequence = ordinal): TurnSummary {
  return {
    turnId: `t${sequence}`,
    ordinal,
    prompt: `prompt ${ordinal}`,
    status: 'completed',
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: '2026-01-01T00:00:01.000Z',
    checkpoint: {
      undone,
      sequence,
      files: paths.map((path) => ({
        path,
        change: 'created',
        entry: 'file',
        linesAdded: 1,
        linesRemoved: 0,
        binary: false,
      })),
      totals: { files: paths.length, linesAdded: paths.length, linesRemoved: 0 },
    },
  };
}

describe(restorePlan, () => {
  const turns = [turn(1, ['x.txt']), turn(2, ['y.txt', 'x.txt']), turn(3, [])];

  it('takes this turn and every later one, each file once', () => {
    const plan = restorePlan(turns[0]!, turns, 'files');
    expect(plan.turns.map((undone) => [undone.ordinal, undone.files])).toEqual([
      [1, ['x.txt']],
      [2, ['y.txt', 'x.txt']],
      [3, []],
    ]);
    expect(plan.files).toEqual(['x.txt', 'y.txt']);
    expect(restoreConsequence(plan)).toBe(
      'This undoes turns 1–3: this turn and every later one. 2 files will be put back as they were before turn 1: x.txt, y.txt. The conversation stays as it is.',
    );
  });

  it('leaves out earlier turns and files a restore already put back', () => {
    const plan = restorePlan(turns[1]!, [turn(1, ['a.txt']), turn(2, ['b.txt']), turn(3, ['c.txt'], true)], 'all');
    expect(plan.files).toEqual(['b.txt']);
    expect(restoreConsequence(plan)).toContain('The conversation will go back to before turn 2: turns 2–3 leave');
  });

  it('puts no file back when only the conversation goes', () => {
    const plan = restorePlan(turns[2]!, turns, 'session');
    expect(plan.files).toEqual([]);
    expect(restoreConsequence(plan)).toBe(
      'This undoes turn 3. Files stay as they are. The conversation will go back to before turn 3: turn 3 leaves the transcript.',
    );
  });

  it('lists the turns an earlier conversation restore cut when their files go back too', () => {
    // Turn 2 (y.txt) was cut from the conversation; the next turn took number 2 again (z.txt).
    const live = [turn(1, ['x.txt']), turn(2, ['z.txt'], false, 3)];
    const cut = [turn(2, ['y.txt'], false, 2)];
    const plan = restorePlan(live[0]!, live, 'files', cut);
    expect(plan.turns.map((undone) => [undone.ordinal, undone.conversationCut, undone.files])).toEqual([
      [1, false, ['x.txt']],
      [2, true, ['y.txt']],
      [2, false, ['z.txt']],
    ]);
    expect(plan.files).toEqual(['x.txt', 'y.txt', 'z.txt']);
    expect(restoreConsequence(plan)).toBe(
      'This undoes turns 1–2: this turn and every later one. 3 files will be put back as they were before turn 1: x.txt, y.txt, z.txt. This includes the files of 1 turn an earlier restore took out of the conversation: turn 2 "prompt 2". The conversation stays as it is.',
    );
    // From the new turn 2 on, the cut turn (which ran before it) is not touched.
    expect(restorePlan(live[1]!, live, 'files', cut).files).toEqual(['z.txt']);
    // A conversation-only restore never touches files, cut turns' included.
    expect(restorePlan(live[0]!, live, 'session', cut).turns.map((undone) => undone.turnId)).toEqual(['t1', 't3']);
  });
});

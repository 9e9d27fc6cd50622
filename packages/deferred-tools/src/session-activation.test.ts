import { describe, expect, it } from 'vitest';
import { SessionActivation, type ActivationChange } from './session-activation.js';

describe('SessionActivation', () => {
  it('activates names, reports only the new ones, and lists them sorted', () => {
    const activation = new SessionActivation();
    expect(activation.activate(['zeta', 'alpha', 'alpha'])).toEqual(['alpha', 'zeta']);
    expect(activation.activate(['alpha', 'Mid'])).toEqual(['Mid']);
    expect(activation.activeTools()).toEqual(['Mid', 'alpha', 'zeta']);
    expect(activation.isActive('alpha')).toBe(true);
    expect(activation.isActive('beta')).toBe(false);
    expect(activation.size).toBe(3);
  });

  it('round-trips through JSON exactly', () => {
    const activation = new SessionActivation(['b_tool', 'a_tool']);
    const stored = JSON.parse(JSON.stringify(activation)) as unknown;
    expect(stored).toEqual({ version: 1, activeTools: ['a_tool', 'b_tool'] });
    const restored = SessionActivation.fromJSON(stored);
    expect(restored.activeTools()).toEqual(['a_tool', 'b_tool']);
    expect(restored.toJSON()).toEqual(activation.toJSON());
  });

  it('reads nothing stored as an empty activation', () => {
    expect(SessionActivation.fromJSON(undefined).size).toBe(0);
    expect(SessionActivation.fromJSON(null).size).toBe(0);
  });

  it.each([
    ['a string', '{"version":1}', /expected an object, got a string/],
    ['an array', ['a'], /expected an object, got an array/],
    ['another version', { version: 2, activeTools: [] }, /version 2 is not 1/],
    ['no list', { version: 1 }, /activeTools is not an array/],
    [
      'a number in the list',
      { version: 1, activeTools: ['ok', 7] },
      /activeTools\[1\] is a number instead of a tool name/,
    ],
    ['a control character', { version: 1, activeTools: ['bad\u0000name'] }, /control characters/],
    ['an overlong name', { version: 1, activeTools: ['x'.repeat(300)] }, /300 characters/],
    [
      'a getter that throws',
      Object.defineProperty({}, 'version', {
        get: () => {
          throw new Error('boom');
        },
        enumerable: true,
      }),
      /fields cannot be read/,
    ],
  ])('refuses %s with invalid_activation_state', (_what, value, message) => {
    let thrown: unknown;
    try {
      SessionActivation.fromJSON(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_activation_state', retryable: false });
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toMatch(/Start from an empty activation/);
  });

  it('activates nothing when any name in the batch is bad', () => {
    const activation = new SessionActivation(['kept']);
    expect(() => activation.activate(['fine', ''])).toThrow(expect.objectContaining({ code: 'invalid_tool_name' }));
    expect(activation.activeTools()).toEqual(['kept']);
  });

  it('resets to empty or to a restored set, telling listeners what changed', () => {
    const activation = new SessionActivation(['a', 'b']);
    const changes: ActivationChange[] = [];
    activation.onChange((change) => changes.push(change));
    activation.reset(['b', 'c']);
    activation.reset();
    activation.reset();
    expect(changes).toEqual([
      { reason: 'reset', activated: ['c'], deactivated: ['a'], state: { version: 1, activeTools: ['b', 'c'] } },
      { reason: 'reset', activated: [], deactivated: ['b', 'c'], state: { version: 1, activeTools: [] } },
    ]);
    expect(activation.size).toBe(0);
  });

  it('tells listeners of activations with the state to persist, and stops when asked', () => {
    const activation = new SessionActivation();
    const persisted: unknown[] = [];
    const stop = activation.onChange((change) => persisted.push(change.state));
    activation.activate(['one']);
    activation.activate(['one']);
    stop();
    activation.activate(['two']);
    expect(persisted).toEqual([{ version: 1, activeTools: ['one'] }]);
  });

  it('keeps the change and still calls every listener when one throws, then rethrows', () => {
    const activation = new SessionActivation();
    const heard: string[] = [];
    activation.onChange(() => {
      throw new Error('disk full');
    });
    activation.onChange((change) => heard.push(...change.activated));
    expect(() => activation.activate(['x'])).toThrow('disk full');
    expect(heard).toEqual(['x']);
    expect(activation.isActive('x')).toBe(true);
  });
});

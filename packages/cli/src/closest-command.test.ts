import { describe, expect, it } from 'vitest';
import { closestCommand } from './closest-command.js';

const names = ['chat', 'run', 'sessions', 'checkpoints', 'undo', 'fork', 'demo'];

describe('closestCommand', () => {
  it('suggests the command a person most likely meant', () => {
    expect(closestCommand('checkpoint', names)).toBe('checkpoints');
    expect(closestCommand('sesions', names)).toBe('sessions');
    expect(closestCommand('udno', names)).toBe('undo');
    expect(closestCommand('dmeo', names)).toBe('demo');
  });

  it('suggests nothing for a word far from every command', () => {
    expect(closestCommand('deploy', names)).toBeUndefined();
  });
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalStyle } from './terminal-style.js';

function stream(isTTY: boolean) {
  return Object.assign(new PassThrough(), { isTTY });
}

describe('terminalStyle', () => {
  it('colours a terminal', () => {
    expect(terminalStyle(stream(true), {}).red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  it('honours NO_COLOR and TERM=dumb, and stays plain when piped', () => {
    expect(terminalStyle(stream(true), { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(terminalStyle(stream(true), { TERM: 'dumb' }).bold('x')).toBe('x');
    expect(terminalStyle(stream(false), {}).green('x')).toBe('x');
    expect(terminalStyle(stream(false), {}).interactive).toBe(false);
  });

  it('lets FORCE_COLOR colour a pipe, but NO_COLOR still wins', () => {
    expect(terminalStyle(stream(false), { FORCE_COLOR: '1' }).color).toBe(true);
    expect(terminalStyle(stream(false), { FORCE_COLOR: '1', NO_COLOR: '1' }).color).toBe(false);
  });
});

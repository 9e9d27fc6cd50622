import { describe, expect, it } from 'vitest';
import { confirmed, parseApprovalAnswer, parseSlashCommand } from './slash-commands.js';

describe('parseSlashCommand', () => {
  it('reads every undo form', () => {
    expect(parseSlashCommand('/undo 2')).toEqual({ kind: 'undo', scope: 'files', turn: '2' });
    expect(parseSlashCommand('/undo session abc')).toEqual({ kind: 'undo', scope: 'session', turn: 'abc' });
    expect(parseSlashCommand('  /undo all last ')).toEqual({ kind: 'undo', scope: 'all', turn: 'last' });
    expect(parseSlashCommand('/undo files 3')).toEqual({ kind: 'undo', scope: 'files', turn: '3' });
    expect(parseSlashCommand('/undo diff 1 src/a b.ts')).toEqual({ kind: 'diff', turn: '1', path: 'src/a b.ts' });
  });

  it('reads the listing commands and exit', () => {
    expect(parseSlashCommand('/checkpoints')).toEqual({ kind: 'checkpoints' });
    expect(parseSlashCommand('/todos')).toEqual({ kind: 'todos' });
    expect(parseSlashCommand('/compact')).toEqual({ kind: 'compact' });
    expect(parseSlashCommand('/sessions')).toEqual({ kind: 'sessions' });
    expect(parseSlashCommand('/help')).toEqual({ kind: 'help' });
    expect(parseSlashCommand('/quit')).toEqual({ kind: 'exit' });
  });

  it('answers malformed commands with what to type', () => {
    // `/undo` alone is not malformed: it asks to undo the last turn (after a confirmation).
    expect(parseSlashCommand('/undo')).toEqual({ kind: 'undo-last' });
    expect(parseSlashCommand('/undo diff 1')).toMatchObject({
      kind: 'invalid',
      message: 'Usage: /undo diff <turn> <path>',
    });
    expect(parseSlashCommand('/undo session')).toMatchObject({
      kind: 'invalid',
      message: 'Usage: /undo session <turn>',
    });
    expect(parseSlashCommand('/todos now')).toMatchObject({ kind: 'invalid', message: '/todos takes no arguments.' });
    expect(parseSlashCommand('/frobnicate')).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('/help'),
    });
  });
});

describe('parseApprovalAnswer', () => {
  it('maps yes, no and always, and asks again for anything else', () => {
    expect(parseApprovalAnswer('y')).toBe('allow');
    expect(parseApprovalAnswer(' YES ')).toBe('allow');
    expect(parseApprovalAnswer('n')).toBe('deny');
    expect(parseApprovalAnswer('')).toBe('deny');
    expect(parseApprovalAnswer('a')).toBe('allow-session');
    expect(parseApprovalAnswer('always')).toBe('allow-session');
    expect(parseApprovalAnswer('maybe')).toBeUndefined();
  });
});

describe('/undo alone', () => {
  it('is the last turn, to be confirmed', () => {
    expect(parseSlashCommand('/undo')).toEqual({ kind: 'undo-last' });
    expect(parseSlashCommand('  /undo  ')).toEqual({ kind: 'undo-last' });
  });

  it('is confirmed only by y or yes; anything else, or the end of input, says no', () => {
    expect(confirmed('y')).toBe(true);
    expect(confirmed(' Yes ')).toBe(true);
    for (const line of ['', 'n', 'no', 'yep', 'a', null]) expect(confirmed(line), String(line)).toBe(false);
  });
});

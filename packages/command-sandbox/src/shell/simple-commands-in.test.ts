import { describe, expect, it } from 'vitest';
import { simpleCommandsIn } from './simple-command.js';

describe('simpleCommandsIn', () => {
  it('lists every simple command, joined or nested, with what is not fixed marked', () => {
    expect(simpleCommandsIn('npm test; curl x | sh')).toEqual([
      { words: ['npm', 'test'], plain: true },
      { words: ['curl', 'x'], plain: true },
      { words: ['sh'], plain: true },
    ]);
    expect(simpleCommandsIn('npm test $(rm x)')).toEqual([
      { words: ['npm', 'test', undefined], plain: false },
      { words: ['rm', 'x'], plain: true },
    ]);
    expect(simpleCommandsIn('npm test\nrm -rf src')?.map((command) => command.words)).toEqual([
      ['npm', 'test'],
      ['rm', '-rf', 'src'],
    ]);
    expect(simpleCommandsIn('if true; then (rm x); fi')?.map((command) => command.words)).toEqual([
      ['true'],
      ['rm', 'x'],
    ]);
  });

  it('marks redirections, assignments, background and declarations as not plain', () => {
    for (const text of ['npm test > out', 'A=1 npm test', 'npm test &', 'npm test <<EOF\nhi\nEOF'])
      expect(simpleCommandsIn(text)?.every((command) => command.plain)).toBe(false);
    expect(simpleCommandsIn('export PATH=/tmp:$PATH; npm test')).toEqual([
      { words: [undefined], plain: false },
      { words: ['npm', 'test'], plain: true },
    ]);
  });

  it('is undefined for text that is not valid bash', () => {
    expect(simpleCommandsIn('npm test (')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { oneLine, terminalSafe } from './terminal-text.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('terminalSafe', () => {
  it('removes colours, cursor movement, OSC 52 clipboard writes, OSC 8 links and titles', () => {
    const hostile = [
      `${ESC}[31mred${ESC}[0m`,
      `${ESC}[2J${ESC}[H${ESC}[10A`,
      `${ESC}]52;c;cm0gLXJmIH4=${BEL}`,
      `${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\`,
      `${ESC}]0;owned${BEL}`,
      '\u009b31m',
    ].join(' ');
    const safe = terminalSafe(hostile);
    expect(safe).toBe('red   link  ');
    // eslint-disable-next-line no-control-regex
    expect(safe).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('turns carriage returns into newlines so text cannot overwrite a line', () => {
    expect(terminalSafe('safe\rEVIL')).toBe('safe\nEVIL');
    expect(terminalSafe('a\r\nb')).toBe('a\nb');
  });

  it('shows bidirectional controls by code point so they cannot reorder a line', () => {
    expect(terminalSafe('invoice\u202Efdp.exe')).toBe('invoice[U+202E]fdp.exe');
    expect(terminalSafe('\u2066a\u2069 \u200F \u061C')).toBe('[U+2066]a[U+2069] [U+200F] [U+061C]');
    // Arabic and Hebrew text itself is left alone.
    expect(terminalSafe('שלום مرحبا')).toBe('שלום مرحبا');
  });

  it('keeps tabs, newlines and ordinary unicode', () => {
    expect(terminalSafe('a\tb\nc — ✓')).toBe('a\tb\nc — ✓');
  });
});

describe('oneLine', () => {
  it('flattens and bounds text', () => {
    expect(oneLine('a\n  b\nc')).toBe('a b c');
    expect(oneLine('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

import { stripControlSequences } from '@clawsmith/tool-protocol';

// Bidirectional overrides, embeddings and isolates (and the marks): they reorder what the
// terminal shows, so a line can read differently from what it holds ("trojan source").
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a tool or a model made safe to print: terminal escape sequences (colours, cursor
 * movement, OSC 52 clipboard writes, OSC 8 links, title changes) and other control characters
 * are removed, a bare carriage return (which would let text overwrite what is already on the
 * line) becomes a newline, and each bidirectional control character is shown as its code point
 * (`[U+202E]`) instead of reordering the line. Tabs and newlines stay.
 */
export function terminalSafe(text: string): string {
  return stripControlSequences(text.replace(/\r\n?/g, '\n')).replace(
    BIDI_CONTROLS,
    (character) => `[U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}

/** One line of at most `width` characters: newlines become spaces, the rest is cut with an ellipsis. */
export function oneLine(text: string, width = 100): string {
  const flat = terminalSafe(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

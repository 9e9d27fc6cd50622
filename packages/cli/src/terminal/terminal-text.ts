import { stripControlSequences } from '@clawsmith/tool-protocol';

/**
 * Text from a tool or a model made safe to print: terminal escape sequences (colours, cursor
 * movement, OSC 52 clipboard writes, OSC 8 links, title changes) and other control characters
 * are removed, and a bare carriage return (which would let text overwrite what is already on the
 * line) becomes a newline. Tabs and newlines stay.
 */
export function terminalSafe(text: string): string {
  return stripControlSequences(text.replace(/\r\n?/g, '\n'));
}

/** One line of at most `width` characters: newlines become spaces, the rest is cut with an ellipsis. */
export function oneLine(text: string, width = 100): string {
  const flat = terminalSafe(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

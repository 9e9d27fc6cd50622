// Text from models and tools is shown literally and bounded: control characters (escape
// sequences, NUL, backspace) and bidirectional overrides become visible placeholders, so a tool
// cannot restyle, reorder or hide what the page shows; anything past the limit is counted, not shown.

/** Characters shown at most per text block, unless the caller says otherwise. */
export const DEFAULT_TEXT_LIMIT = 20_000;

// C0 controls except tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate marks.
// Matching control characters is the point of this expression.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function placeholder(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // Unicode control pictures: ␛ ␀ ␈
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The text made visible and cut to `limit` characters; `omitted` counts what was cut. */
export function visibleText(text: string, limit = DEFAULT_TEXT_LIMIT): { text: string; omitted: number } {
  const cut = text.length > limit ? text.slice(0, limit) : text;
  return { text: cut.replace(INVISIBLE, placeholder), omitted: text.length - cut.length };
}

// Escapes after which a character cannot be a line terminator: word and digit classes, word
// boundaries, and escaped punctuation. Everything else (\s, \W, \D, \n, \x0a, \u2028, \cJ,
// backreferences and octal escapes such as \12) is refused.
const SAFE_ESCAPES = new Set([...'wdbB\\.*+?()[]{}|/^$-']);
const SAFE_CLASS_ESCAPES = new Set([...'wd\\.*+?()[]{}|/^$-']);

function isLineTerminatorOrControl(code: number): boolean {
  return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
}

/**
 * Whether a regular expression (source, flags without `m`, `s`, `u` or `v`) can be searched for
 * over a whole text with the `gm` flags to find candidate lines, without missing a line that
 * matching line by line would find: it must be unable to match a line terminator and hold no
 * lookaround or backreference (the only constructs that can see past the end of a line). `^`,
 * `$` and `\b` mean the same at a line's ends in both. Conservative: anything not understood
 * answers false, and the caller then matches every line.
 */
export function canPrefilterWholeText(source: string): boolean {
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index]!;
    const code = source.charCodeAt(index);
    if (isLineTerminatorOrControl(code)) return false;
    if (char === '\\') {
      const next = source[index + 1];
      if (next === undefined || !(inClass ? SAFE_CLASS_ESCAPES : SAFE_ESCAPES).has(next)) return false;
      index += 1;
      continue;
    }
    if (inClass) {
      // A range between raw characters can span a terminator only if one end lies beyond ASCII.
      if (code > 0x7e) return false;
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      // A negated class matches line terminators; so does an empty negated one.
      if (source[index + 1] === '^') return false;
      inClass = true;
      // A leading "]" is literal in JavaScript only as "[]", the empty class: nothing to skip.
      continue;
    }
    if (char === '(' && source[index + 1] === '?') {
      const kind = source[index + 2];
      if (kind === ':') continue;
      // Named groups are fine; (?<= and (?<! are lookbehinds.
      if (kind === '<' && source[index + 3] !== '=' && source[index + 3] !== '!') continue;
      return false;
    }
  }
  return !inClass;
}

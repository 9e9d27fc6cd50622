// Part of the cli's build (used by bundle-bin.mjs): keeps the bundle's files one-byte text.
import { readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';

// V8 holds a source with any character above U+00FF as a two-byte string: Node decodes the whole
// file on the slow path, and every scan of it (the first compile, then each function compiled on
// its first call) reads twice the bytes. esbuild escapes such characters in the code it prints
// (`charset: 'ascii'`, its default) but keeps the comments it preserves as written, so a single
// `…` or `—` in a package's doc comment made a whole chunk two-byte.
const WIDE_CHARACTER = /[\u0100-\u{10ffff}]/u;
const WIDE_CHARACTERS = new RegExp(WIDE_CHARACTER.source, 'gu');

// The printed code holds no wide character outside comments and regular expression literals, and
// no printed line of code starts like a comment: a wide character on such a line is in a comment.
// The rewrite is checked all the same: without comments, the file must print as before.
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

const withoutComments = (code) =>
  transformSync(code, { format: 'esm', minifyWhitespace: true, legalComments: 'none', charset: 'utf8' }).code;

/**
 * Rewrites each character above U+00FF in the comment lines of the JavaScript file at `path` as
 * its `\u{…}` spelling. Wide characters in code (a regular expression literal's) are left alone.
 * Returns how many lines changed.
 */
export function rewriteWideCommentCharacters(path) {
  const text = readFileSync(path, 'utf8');
  if (!WIDE_CHARACTER.test(text)) return 0;
  let changed = 0;
  const lines = text.split('\n').map((line) => {
    if (!COMMENT_LINE.test(line) || !WIDE_CHARACTER.test(line)) return line;
    changed += 1;
    return line.replace(WIDE_CHARACTERS, (character) => `\\u{${character.codePointAt(0).toString(16)}}`);
  });
  if (changed === 0) return 0;
  const rewritten = lines.join('\n');
  if (withoutComments(rewritten) !== withoutComments(text))
    throw new Error(`one-byte-comments: rewriting the comments of ${path} changed its code`);
  writeFileSync(path, rewritten);
  return changed;
}

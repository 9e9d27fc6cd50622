import { simpleCommandWords, type FoundSimpleCommand } from '@clawsmith/command-sandbox';
import type { PermissionAction } from './permission-policy.js';

// A rule's prefix is parsed once: rules are long-lived and checked on every call.
const prefixWordsKept = new Map<string, readonly string[] | undefined>();
const PREFIXES_KEPT = 256;

function prefixWordsOf(prefix: string): readonly string[] | undefined {
  if (prefixWordsKept.has(prefix)) return prefixWordsKept.get(prefix);
  if (prefixWordsKept.size >= PREFIXES_KEPT) prefixWordsKept.clear();
  const words = simpleCommandWords(prefix);
  prefixWordsKept.set(prefix, words);
  return words;
}

function mayStartWith(words: readonly (string | undefined)[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length && words.every((word) => word !== undefined)) return false;
  // A word only known when it runs may be the prefix's word: deny and ask rules fail closed.
  return prefix.every((word, index) => words[index] === undefined || words[index] === word);
}

/**
 * Whether a rule's command prefix matches a command text, judged over each simple command it
 * runs (`commands`, parsed once per call; `undefined` when the text is not valid bash): for
 * `allow`, every command must be plain and start with the prefix (`npm test && rm -rf src` and
 * `npm test $(rm x)` do not match `npm test`); for `deny` and `ask`, any command that may start
 * with it matches, and so does text that is not valid bash.
 */
export function commandPrefixMatches(
  commands: readonly FoundSimpleCommand[] | undefined,
  prefix: string,
  action: PermissionAction,
  exact = false,
): boolean {
  const prefixWords = prefixWordsOf(prefix);
  if (!prefixWords) return false;
  if (action === 'allow') {
    if (!commands || commands.length === 0) return false;
    return commands.every(
      (found) =>
        found.plain &&
        (exact ? found.words.length === prefixWords.length : found.words.length >= prefixWords.length) &&
        prefixWords.every((word, index) => found.words[index] === word),
    );
  }
  if (!commands) return true;
  return commands.some(
    (found) =>
      mayStartWith(found.words, prefixWords) &&
      // An exact rule meets a longer command only when a word past the prefix is unknown.
      (!exact || found.words.length === prefixWords.length || !found.plain),
  );
}

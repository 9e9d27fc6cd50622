import { simpleCommandWords, simpleCommandsIn } from '@clawsmith/command-sandbox';
import type { PermissionAction } from './permission-policy.js';

function mayStartWith(words: readonly (string | undefined)[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length && words.every((word) => word !== undefined)) return false;
  // A word only known when it runs may be the prefix's word: deny and ask rules fail closed.
  return prefix.every((word, index) => words[index] === undefined || words[index] === word);
}

/**
 * Whether a rule's command prefix matches `command`, judged over each simple command it runs:
 * for `allow`, every command must be plain and start with the prefix (`npm test && rm -rf src`
 * and `npm test $(rm x)` do not match `npm test`); for `deny` and `ask`, any command that may
 * start with it matches, and so does text that is not valid bash.
 */
export function commandPrefixMatches(
  command: string,
  prefix: string,
  action: PermissionAction,
  exact = false,
): boolean {
  const prefixWords = simpleCommandWords(prefix);
  if (!prefixWords) return false;
  const commands = simpleCommandsIn(command);
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

// An undo restores a file in place (the wall's `overwrite`) by writing the earlier bytes over it
// from its first byte and then cutting it to their length. A process killed during that leaves,
// for some k, the earlier bytes up to k followed by the agent's bytes from k on (or, once past the
// agent's end, just the first k earlier bytes): neither what the journal expected nor its target.
// Recognised exactly, byte for byte, such a file is the undo's own unfinished work, which the
// journal finishes; anything else at the path is a person's and stays.

/**
 * Whether `found` is what writing `target` over `written` in place leaves when cut short after
 * some number of bytes: `target`'s first k bytes followed by `written`'s from k on, or (k past
 * the end of `written`) `target`'s first k bytes alone.
 */
export function isInterruptedOverwrite(found: Uint8Array, target: Uint8Array, written: Uint8Array): boolean {
  let prefix = 0;
  const shorter = Math.min(found.length, target.length);
  while (prefix < shorter && found[prefix] === target[prefix]) prefix += 1;
  if (found.length > written.length) return prefix === found.length;
  if (found.length < written.length) return false;
  // Same length as the agent's bytes: where does the agent's tail that `found` still holds begin?
  let tail = found.length;
  while (tail > 0 && found[tail - 1] === written[tail - 1]) tail -= 1;
  return tail <= prefix;
}

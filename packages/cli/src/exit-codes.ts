/** Exit codes of the command. */
export const EXIT_CODES = Object.freeze({
  /** The command did what was asked (for `run`: the turn completed). */
  ok: 0,
  /** It failed: a turn that did not complete, a refused operation, a missing session. */
  failed: 1,
  /** The command line was wrong: an unknown option, a missing argument, a bad choice. */
  usage: 2,
  /** An undo was refused because files changed since the agent wrote them. */
  conflict: 3,
  /** The person pressed Ctrl-C twice. */
  interrupted: 130,
});

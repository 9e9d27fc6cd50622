/**
 * The port through which a read-only tool learns which files the current turn has changed so
 * far: by clawsmith's file tools, and by commands once their changes are recorded. `checkpoints`
 * holds the answer (the turn's manifest); the host wires an implementation into the services
 * that need it, for example the lsp diagnostics of "the files changed in this turn".
 */
export interface TurnChangedFiles {
  /**
   * Workspace-relative paths (`/` separators) the turn `turnId` of session `sessionId` has
   * changed, in the order it first touched them; deleted paths included. Empty when none.
   */
  changedFiles(sessionId: string, turnId: string): Promise<readonly string[]>;
}

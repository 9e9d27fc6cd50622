/** What a turn hook sees. */
export interface TurnHookInput {
  readonly sessionId: string;
  readonly turnId: string;
  readonly workspaceRoot: string;
}

/** A prompt hook's answer: `block` ends the turn before the model sees the prompt; `context` is added to it. */
export interface PromptVerdict {
  readonly block?: string;
  readonly context?: string;
}

/** A stop hook's answer: `continueWith` sends the model this reason and the turn goes on; `failure` ends the turn failed. */
export interface StopVerdict {
  readonly continueWith?: string;
  readonly failure?: string;
}

/**
 * Hooks around a turn (the settings events `UserPromptSubmit` and `Stop`). Each answer is taken
 * as final: a hook that fails must say so in its verdict (settings hooks block the prompt, or
 * end the turn failed, naming the hook).
 */
export interface TurnHooks {
  /** Before the prompt reaches the model: may block it or add context. */
  promptSubmitted?(input: TurnHookInput & { readonly prompt: string }): Promise<PromptVerdict>;
  /**
   * When the model answered without tool calls: may ask the loop to continue with a reason.
   * `continued` counts the continuations this turn already had (at most {@link MAX_STOP_CONTINUATIONS}).
   */
  stopping?(input: TurnHookInput & { readonly continued: number; readonly lastText: string }): Promise<StopVerdict>;
}

/** How many times stop hooks may send a turn back to the model before it ends anyway. */
export const MAX_STOP_CONTINUATIONS = 3;

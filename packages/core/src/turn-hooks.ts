/** What a turn hook sees. */
export interface TurnHookInput {
  /** The session the turn runs in. */
  readonly sessionId: string;
  /** The turn, as its events and restore point name it. */
  readonly turnId: string;
  /** The session's workspace (its real path), where a hook command runs. */
  readonly workspaceRoot: string;
}

/** What a session hook sees (no turn: a session starts before its first prompt and ends after its last turn). */
export interface SessionHookInput {
  /** The session that starts or ends. */
  readonly sessionId: string;
  /** The session's workspace (its real path), where a hook command runs. */
  readonly workspaceRoot: string;
  /** The turn it happens in, when it happens in one. */
  readonly turnId?: string;
}

/** A prompt hook's answer: `block` ends the turn before the model sees the prompt; `context` is added to it. */
export interface PromptVerdict {
  /** Why the prompt is refused: the turn ends before the model sees it, with `prompt_blocked` and this reason. */
  readonly block?: string;
  /** Text added to the prompt as the model sees it. */
  readonly context?: string;
}

/** A stop hook's answer: `continueWith` sends the model this reason and the turn goes on; `failure` ends the turn failed. */
export interface StopVerdict {
  /** Why the model must go on: sent to it as the next user message (`[hook] ...`), and the turn continues. */
  readonly continueWith?: string;
  /** What went wrong in the hook: the turn ends `failed` with `hook_failed` and this message. */
  readonly failure?: string;
}

/** A session start hook's answer: `context` is added to the session's first prompt; `failure` ends that turn failed. */
export interface SessionStartVerdict {
  /** Text added to the session's first prompt as the model sees it. */
  readonly context?: string;
  /** What went wrong in the hook: the first turn ends `failed` with `hook_failed` and this message. */
  readonly failure?: string;
  /** What the person should be told (a hook that exited 2: it cannot block). */
  readonly notice?: string;
}

/** A compaction hook's answer: `block` keeps the view as it is (and says why); `instructions` are added to the summary request. */
export interface CompactionVerdict {
  /** Why the view must stay uncompacted: compaction is skipped, and the person is told this. */
  readonly block?: string;
  /** Instructions added to the summary request (what the summary must keep). */
  readonly instructions?: string;
}

/** The answer of a hook that cannot change anything (session end, notification): what went wrong, if anything. */
export interface SideEffectVerdict {
  /** What went wrong in the hook, told to the person (`onHookNotice`); nothing else changes. */
  readonly failure?: string;
}

/**
 * Hooks around turns and sessions (the settings events `UserPromptSubmit`, `Stop`,
 * `SessionStart`, `SessionEnd`, `SubagentStop`, `PreCompact`, `Notification`). Each answer is
 * taken as final: a hook that fails must say so in its verdict (settings hooks block the prompt,
 * end the turn failed, or block the compaction, naming the hook).
 */
export interface TurnHooks {
  /** Before the prompt reaches the model: may block it or add context. */
  promptSubmitted?(input: TurnHookInput & { readonly prompt: string }): Promise<PromptVerdict>;
  /**
   * When the model answered without tool calls: may ask the loop to continue with a reason.
   * `continued` counts the continuations this turn already had (at most {@link MAX_STOP_CONTINUATIONS}).
   */
  stopping?(input: TurnHookInput & { readonly continued: number; readonly lastText: string }): Promise<StopVerdict>;
  /**
   * Before the first turn a core runs in a session: `startup` for a session without turns,
   * `resume` for one that had turns (in this process or another). May add context to the prompt.
   */
  sessionStarted?(input: SessionHookInput & { readonly source: 'startup' | 'resume' }): Promise<SessionStartVerdict>;
  /** When the core closes, for each session it started; cannot change anything. */
  sessionEnded?(input: SessionHookInput & { readonly reason: string }): Promise<SideEffectVerdict>;
  /** Like {@link stopping}, for a subagent's turn (`sessionId` is the subagent's session). */
  subagentStopping?(
    input: TurnHookInput & { readonly continued: number; readonly lastText: string },
  ): Promise<StopVerdict>;
  /** Before the model's view is compacted: `manual` on demand (`/compact`), `auto` at the threshold or after a refusal. */
  compacting?(input: SessionHookInput & { readonly trigger: 'manual' | 'auto' }): Promise<CompactionVerdict>;
  /** When the agent waits for a person (`permission_prompt`: an approval); runs while the person is asked. */
  notified?(
    input: SessionHookInput & { readonly notificationType: string; readonly message: string },
  ): Promise<SideEffectVerdict>;
}

/** How many times stop hooks may send a turn back to the model before it ends anyway. */
export const MAX_STOP_CONTINUATIONS = 3;

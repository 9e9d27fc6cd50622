import type { ToolHost } from '@clawsmith/tool-host';

/**
 * Opens a restore point per AI SDK step. The SDK hands every tool call of a step the same
 * conversation (the messages sent to the model for that step); a call with a longer one belongs
 * to a new step, so the host's open step ends and another begins.
 */
export class StepTracker {
  private current: { readonly length: number; readonly opened: Promise<string> } | undefined;

  constructor(private readonly host: ToolHost) {}

  /** Joins the step of `messages`, opening it when it is new; without messages the call gets a restore point of its own. */
  async enter(messages: readonly unknown[] | undefined): Promise<void> {
    if (!messages) return;
    if (this.current?.length !== messages.length)
      this.current = { length: messages.length, opened: this.host.beginStep() };
    await this.current.opened;
  }
}

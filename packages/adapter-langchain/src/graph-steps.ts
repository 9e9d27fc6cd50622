import type { ToolHost } from '@clawsmith/tool-host';

/** The parts of a LangGraph task's config that place a tool call in a thread's superstep. */
export interface StepPlace {
  readonly metadata?: Record<string, unknown>;
  readonly configurable?: Record<string, unknown>;
}

/**
 * Opens a restore point per LangGraph step. Every tool call that LangGraph runs in one superstep
 * of a thread (all the calls of one model message, in one tools node or in one task each) carries
 * the same `langgraph_step`; a call of another step or thread ends the host's open step and opens
 * a new one. A call outside a graph gets a restore point of its own.
 */
export class GraphSteps {
  private current: { readonly key: string; readonly opened: Promise<string> } | undefined;

  constructor(private readonly host: ToolHost) {}

  /** Joins the step `place` belongs to, opening it when it is new. */
  async enter(place: StepPlace | undefined): Promise<void> {
    const step = place?.metadata?.langgraph_step;
    if (typeof step !== 'number') return;
    const key = `${String(place?.configurable?.thread_id ?? '')}\u0000${step}`;
    if (this.current?.key !== key) this.current = { key, opened: this.host.beginStep() };
    await this.current.opened;
  }
}

import type { AgentCore, SessionReader, TurnSettings } from '@clawsmith/core';
import { ClawsmithError, type TraceContext } from '@clawsmith/tool-protocol';
import { WebError } from '../http/web-error.js';

interface RunningTurn {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
  turnId: string | undefined;
}

/**
 * The turns this server runs: at most one per session, started in the background and followed
 * over the event stream, cancellable until they end. A session whose latest turn another live
 * process is running (a `clawsmith run` in a terminal) is refused with `turn_in_progress`.
 */
export class TurnRunner {
  readonly #core: AgentCore;
  readonly #store: SessionReader;
  readonly #canRunTurns: boolean;
  readonly #systemPrompt: ((session: { id: string; workspaceRoot: string }) => string | undefined) | undefined;
  readonly #running = new Map<string, RunningTurn>();
  /** Turns whose end is recorded (the session is free) but whose run has not returned yet. */
  readonly #ending = new Set<RunningTurn>();
  readonly #continueTrace: ((sessionId: string, parent: TraceContext) => void) | undefined;
  readonly #settingsFor: ((session: { id: string; workspaceRoot: string }) => TurnSettings | undefined) | undefined;

  constructor(options: {
    settingsFor?: (session: { id: string; workspaceRoot: string }) => TurnSettings | undefined;
    core: AgentCore;
    store: SessionReader;
    canRunTurns: boolean;
    systemPrompt?: (session: { id: string; workspaceRoot: string }) => string | undefined;
    continueTrace?: (sessionId: string, parent: TraceContext) => void;
  }) {
    this.#continueTrace = options.continueTrace;
    this.#core = options.core;
    this.#store = options.store;
    this.#canRunTurns = options.canRunTurns;
    this.#systemPrompt = options.systemPrompt;
    this.#settingsFor = options.settingsFor;
  }

  /** Whether this server has a model to run turns with. */
  get canRunTurns(): boolean {
    return this.#canRunTurns;
  }

  /** Refuses with `provider_required` when this server has no model to run turns with. */
  requireModel(): void {
    if (!this.#canRunTurns)
      throw new WebError(
        'provider_required',
        'This server was started without a model, so it cannot run turns; restart it with --script FILE or --provider and --model.',
      );
  }

  /** Whether this server runs a turn of `sessionId` now. */
  runsHere(sessionId: string): boolean {
    return this.#running.has(sessionId);
  }

  /**
   * Starts a turn and answers once it has started (its id known), or with why it could not start.
   * With `trace` (the request's `traceparent`), the turn continues that trace.
   */
  async start(sessionId: string, prompt: string, trace?: TraceContext): Promise<{ sessionId: string; turnId: string }> {
    this.requireModel();
    const session = await this.#store.requireSession(sessionId);
    const busy = () =>
      new ClawsmithError(
        'turn_in_progress',
        `A turn is already running in session ${sessionId}; wait for it to end or cancel it where it runs.`,
      );
    await this.#awaitEnded(sessionId, busy);
    if (await this.#store.runsElsewhere(sessionId)) throw busy();
    // Checked again after the reads above: another request may have started one meanwhile.
    if (this.#running.has(sessionId)) throw busy();
    // Read before the turn starts: an invalid settings file refuses the turn with its reason.
    const settings = this.#settingsFor?.({ id: session.id, workspaceRoot: session.workspaceRoot });
    const controller = new AbortController();
    let started: (turnId: string) => void = () => {};
    const turnStarted = new Promise<string>((resolve) => (started = resolve));
    const unsubscribe = this.#core.subscribe((event) => {
      if (event.sessionId !== sessionId || !event.turnId) return;
      if (event.type === 'turn.started') started(event.turnId);
      // The core announces the end once the session is free: the next prompt may start it now.
      if (event.type === 'turn.completed') this.#ended(sessionId, event.turnId);
    });
    const systemPrompt = this.#systemPrompt?.({ id: session.id, workspaceRoot: session.workspaceRoot });
    if (trace) this.#continueTrace?.(sessionId, trace);
    const done = this.#core.runTurn({
      sessionId,
      prompt,
      signal: controller.signal,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(settings ? { settings } : {}),
    });
    const running: RunningTurn = { controller, done, turnId: undefined };
    this.#running.set(sessionId, running);
    void done.then(
      () => this.#finish(sessionId, running, unsubscribe),
      () => this.#finish(sessionId, running, unsubscribe),
    );
    void turnStarted.then((turnId) => (running.turnId = turnId));
    const turnId = await Promise.race([turnStarted, done.then(() => undefined)]);
    if (turnId === undefined) throw new Error('The turn ended without announcing itself.');
    return { sessionId, turnId };
  }

  /** Cancels this server's turn of `sessionId`; the turn closes its calls and ends `cancelled`. */
  async cancel(sessionId: string): Promise<{ sessionId: string; turnId: string | null }> {
    const entry = this.#running.get(sessionId);
    if (!entry) {
      await this.#store.requireSession(sessionId);
      if (await this.#store.runsElsewhere(sessionId)) {
        const last = await this.#store.getLastTurn(sessionId);
        const owner =
          last?.status === 'running'
            ? `process ${last.ownerPid}${last.ownerHost ? ` on ${last.ownerHost}` : ''}`
            : 'another process';
        throw new ClawsmithError(
          'turn_in_progress',
          `The running turn of session ${sessionId} belongs to ${owner}; cancel it there (Ctrl-C).`,
        );
      }
      throw new WebError('turn_not_running', `No turn is running in session ${sessionId}.`);
    }
    entry.controller.abort();
    await entry.done.catch(() => {});
    return { sessionId, turnId: entry.turnId ?? null };
  }

  /** Cancels every running turn and waits for them (and those ending) to close. */
  async close(): Promise<void> {
    const entries = [...this.#running.values()];
    for (const entry of entries) entry.controller.abort();
    await Promise.all([...entries, ...this.#ending].map((entry) => entry.done.catch(() => {})));
  }

  /**
   * Refuses with `busy` while this server runs a turn of the session; a turn whose end is already
   * recorded (read by another connection before its event reached this server) is waited for.
   */
  async #awaitEnded(sessionId: string, busy: () => ClawsmithError): Promise<void> {
    const entry = this.#running.get(sessionId);
    if (!entry) return;
    const turn = entry.turnId === undefined ? undefined : await this.#store.getTurn(sessionId, entry.turnId);
    if (turn === undefined || turn.status === 'running') throw busy();
    await entry.done.catch(() => {});
  }

  #ended(sessionId: string, turnId: string): void {
    const entry = this.#running.get(sessionId);
    if (entry?.turnId !== turnId) return;
    this.#running.delete(sessionId);
    this.#ending.add(entry);
  }

  #finish(sessionId: string, entry: RunningTurn, unsubscribe: () => void): void {
    unsubscribe();
    this.#ending.delete(entry);
    if (this.#running.get(sessionId) === entry) this.#running.delete(sessionId);
  }
}

import { notFound, type CommandRecord } from './command-record.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from '../errors.js';

/**
 * The background commands of every session of one service: the cap on live commands per session
 * (starts still preparing hold a place, so concurrent starts cannot pass it together), the
 * finished commands remembered, and the refusal once the service is closed.
 */
export class CommandRegistry {
  readonly #sessions = new Map<string, Map<string, CommandRecord>>();
  readonly #starting = new Map<string, number>();
  readonly #maxLive: number;
  readonly #keepFinished: number;
  #closed = false;

  constructor(limits: { readonly maxLivePerSession: number; readonly keepFinishedPerSession: number }) {
    this.#maxLive = limits.maxLivePerSession;
    this.#keepFinished = limits.keepFinishedPerSession;
  }

  /**
   * Holds a place for one command of `sessionId` while it starts; returns the function that
   * gives the place back. Throws `service_closed` or `command_limit_reached`.
   */
  reserve(sessionId: string): () => void {
    if (this.#closed)
      throw new CommandSandboxError(
        COMMAND_SANDBOX_ERROR_CODES.serviceClosed,
        'The command service is closed; no new commands can start.',
      );
    if (this.live(sessionId).length + (this.#starting.get(sessionId) ?? 0) >= this.#maxLive) {
      throw new CommandSandboxError(
        COMMAND_SANDBOX_ERROR_CODES.commandLimitReached,
        `This session already has ${this.#maxLive} running background commands, the most it may have. Cancel one with cancel_command (list_commands shows them) or wait for one to end.`,
        { retryable: true },
      );
    }
    this.#starting.set(sessionId, (this.#starting.get(sessionId) ?? 0) + 1);
    return () => this.#starting.set(sessionId, (this.#starting.get(sessionId) ?? 1) - 1);
  }

  add(record: CommandRecord): void {
    const commands = this.#sessions.get(record.sessionId) ?? new Map<string, CommandRecord>();
    this.#sessions.set(record.sessionId, commands);
    commands.set(record.id, record);
  }

  /** The command, or `command_not_found` when this session has no such id. */
  recordOf(sessionId: string, id: string): CommandRecord {
    const record = this.#sessions.get(sessionId)?.get(id);
    if (!record) throw notFound(id);
    return record;
  }

  list(sessionId: string): CommandRecord[] {
    return [...(this.#sessions.get(sessionId)?.values() ?? [])];
  }

  live(sessionId: string): CommandRecord[] {
    return this.list(sessionId).filter((record) => !record.outcome);
  }

  /** Forgets the oldest finished commands of the session beyond those remembered. */
  forgetOldFinished(sessionId: string): void {
    const commands = this.#sessions.get(sessionId);
    if (!commands) return;
    const finished = [...commands.values()].filter((record) => record.outcome);
    for (const record of finished.slice(0, Math.max(0, finished.length - this.#keepFinished)))
      commands.delete(record.id);
  }

  forgetSession(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  sessionIds(): string[] {
    return [...this.#sessions.keys()];
  }

  /** Every command still running, in any session. */
  allLive(): CommandRecord[] {
    return this.sessionIds().flatMap((sessionId) => this.live(sessionId));
  }

  /** Refuses every later start. */
  close(): void {
    this.#closed = true;
  }
}

import { SessionActivation } from '@clawsmith/deferred-tools';
import type { SessionStore } from './store/session-store.js';

/**
 * The deferred-tool activation of every session this core touched: one in-memory
 * {@link SessionActivation} per session, loaded from the store once, shared by the turn loop
 * (which saves it after each batch) and `search_tools` (which changes it in place).
 */
export class SessionActivations {
  readonly #store: SessionStore;
  readonly #loaded = new Map<string, SessionActivation>();

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /** The session's activation, read from the store the first time. */
  async load(sessionId: string): Promise<SessionActivation> {
    let activation = this.#loaded.get(sessionId);
    if (!activation) {
      activation = new SessionActivation(await this.#store.getActivation(sessionId));
      this.#loaded.set(sessionId, activation);
    }
    return activation;
  }

  /** The activation `load` returned; throws if the session's turn did not load it first. */
  loaded(sessionId: string): SessionActivation {
    const activation = this.#loaded.get(sessionId);
    if (!activation) throw new Error(`The activation of session ${sessionId} was not loaded before search_tools ran.`);
    return activation;
  }
}

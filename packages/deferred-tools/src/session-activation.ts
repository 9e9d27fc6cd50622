import { InvalidActivationStateError, InvalidToolNameError } from './deferred-tools-error.js';
import { compareCodeUnits } from './search-index.js';
import { toolNameProblem } from './tool-name.js';

/** What {@link SessionActivation.toJSON} writes and {@link SessionActivation.fromJSON} reads. */
export interface SessionActivationState {
  /** Version of this shape. */
  readonly version: 1;
  /** The active deferred tools, sorted by name. */
  readonly activeTools: readonly string[];
}

/** One change of a {@link SessionActivation}, as its listeners see it. */
export interface ActivationChange {
  /** Why it changed: a call to `activate`, or a `reset` (for example a session restore). */
  readonly reason: 'activate' | 'reset';
  /** Names that became active, sorted. */
  readonly activated: readonly string[];
  /** Names that stopped being active, sorted. */
  readonly deactivated: readonly string[];
  /** The state after the change, ready to persist. */
  readonly state: SessionActivationState;
}

/** Called after every change that added or removed a name. */
export type ActivationListener = (change: ActivationChange) => void;

/** Most names a stored state may hold; more is not a state this package wrote. */
const MAX_STORED_NAMES = 100_000;

/**
 * The deferred tools one session has activated. Core keeps one per session, saves its
 * {@link SessionActivation.activeTools} with the session after each batch of calls, and resets it
 * on a session restore. Names are plain strings: a name that matches no tool (a server that went away)
 * stays harmlessly inert.
 */
export class SessionActivation {
  private readonly names = new Set<string>();
  private readonly listeners = new Set<ActivationListener>();

  /** An activation holding `names`. */
  constructor(names: Iterable<string> = []) {
    for (const name of names) this.names.add(checkedName(name));
  }

  /**
   * Reads a state written by {@link SessionActivation.toJSON}. `undefined` and `null` (nothing
   * stored yet) give an empty activation. Anything else that is not `{ version: 1, activeTools:
   * string[] }` with usable names throws {@link InvalidActivationStateError}: the caller decides
   * to start empty rather than this method guessing. Duplicates are merged.
   */
  static fromJSON(value: unknown): SessionActivation {
    if (value === undefined || value === null) return new SessionActivation();
    if (typeof value !== 'object' || Array.isArray(value))
      throw new InvalidActivationStateError(
        `expected an object, got ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}`,
      );
    let version: unknown;
    let activeTools: unknown;
    try {
      ({ version, activeTools } = value as { version?: unknown; activeTools?: unknown });
    } catch {
      throw new InvalidActivationStateError('its fields cannot be read');
    }
    if (version !== 1)
      throw new InvalidActivationStateError(`version ${JSON.stringify(version) ?? 'undefined'} is not 1`);
    if (!Array.isArray(activeTools)) throw new InvalidActivationStateError('activeTools is not an array');
    if (activeTools.length > MAX_STORED_NAMES)
      throw new InvalidActivationStateError(
        `activeTools holds ${activeTools.length} names (at most ${MAX_STORED_NAMES})`,
      );
    activeTools.forEach((name: unknown, index) => {
      const problem = toolNameProblem(name);
      if (problem) throw new InvalidActivationStateError(`activeTools[${index}] is ${problem}`);
    });
    return new SessionActivation(activeTools as string[]);
  }

  /** Number of active tools. */
  get size(): number {
    return this.names.size;
  }

  /** Whether `name` is active. */
  isActive(name: string): boolean {
    return this.names.has(name);
  }

  /**
   * Activates `names`; returns those that were not active before, sorted. Every name is checked
   * before any is added, so a bad name ({@link InvalidToolNameError}) activates nothing.
   */
  activate(names: Iterable<string>): string[] {
    const checked = [...names].map(checkedName);
    const added = [...new Set(checked.filter((name) => !this.names.has(name)))].sort(compareCodeUnits);
    for (const name of added) this.names.add(name);
    if (added.length > 0) this.notify({ reason: 'activate', activated: added, deactivated: [] });
    return added;
  }

  /** The active tools, sorted by name (code-unit order). */
  activeTools(): string[] {
    return [...this.names].sort(compareCodeUnits);
  }

  /**
   * Replaces the active set with `names` (empty by default), as a session restore does.
   * Listeners hear of it only when the set changed.
   */
  reset(names: Iterable<string> = []): void {
    const next = new Set([...names].map(checkedName));
    const deactivated = [...this.names].filter((name) => !next.has(name)).sort(compareCodeUnits);
    const activated = [...next].filter((name) => !this.names.has(name)).sort(compareCodeUnits);
    this.names.clear();
    for (const name of next) this.names.add(name);
    if (activated.length > 0 || deactivated.length > 0) this.notify({ reason: 'reset', activated, deactivated });
  }

  /** Calls `listener` after every change; returns a function that stops it. */
  onChange(listener: ActivationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state to persist: `{ version: 1, activeTools }` with names sorted. */
  toJSON(): SessionActivationState {
    return { version: 1, activeTools: this.activeTools() };
  }

  // Every listener hears of the change even if an earlier one throws (the change is made
  // either way); the first error is rethrown afterwards so a failed persist is not silent.
  private notify(change: Omit<ActivationChange, 'state'>): void {
    const full: ActivationChange = Object.freeze({ ...change, state: this.toJSON() });
    let failure: { error: unknown } | undefined;
    for (const listener of [...this.listeners]) {
      try {
        listener(full);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

function checkedName(name: unknown): string {
  const problem = toolNameProblem(name);
  if (problem) throw new InvalidToolNameError(problem);
  return name as string;
}

import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import type { AgentCore, SessionChangeFeed, SessionReader } from '@clawsmith/core';
import type { PageFiles } from './static/page-files.js';
import type { GuardState } from './security/request-guard.js';
import type { ApprovalBroker } from '@clawsmith/core';
import type { TurnRunner } from './turns/turn-runner.js';

/** Everything the routes of one server share. */
export interface WebContext {
  readonly core: AgentCore;
  readonly store: SessionReader;
  readonly checkpoints: CheckpointStore;
  readonly artifacts: ArtifactStore;
  /** Tells the event streams when a session changed, in this process or any other sharing the home. */
  readonly watcher: SessionChangeFeed;
  readonly turns: TurnRunner;
  readonly approvals: ApprovalBroker;
  readonly guard: GuardState;
  /** The folders new sessions may start in (real paths), as the server was started with them. */
  readonly workspaces: readonly string[];
  /** The built page's files, by URL path (empty when the page is not built). */
  readonly page: PageFiles;
  readonly streams: {
    /** Open event streams now. */
    open: number;
    readonly max: number;
    readonly heartbeatMs: number;
    readonly stallTimeoutMs: number;
  };
}

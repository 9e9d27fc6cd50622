import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import type { AgentCore, SessionReader } from '@clawsmith/core';
import type { PageFiles } from './static/page-files.js';
import type { StoreWatcher } from './live/store-watcher.js';
import type { GuardState } from './security/request-guard.js';
import type { ApprovalBroker } from './turns/approval-broker.js';
import type { TurnRunner } from './turns/turn-runner.js';

/** Everything the routes of one server share. */
export interface WebContext {
  readonly core: AgentCore;
  readonly store: SessionReader;
  readonly checkpoints: CheckpointStore;
  readonly artifacts: ArtifactStore;
  readonly watcher: StoreWatcher;
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

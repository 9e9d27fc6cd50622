import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointStore } from '@clawsmith/checkpoints';
import { ApprovalBroker, type AgentCore, type TurnSettings } from '@clawsmith/core';
import { serve } from '@hono/node-server';
import type { TraceContext } from '@clawsmith/tool-protocol';
import { loadPageFiles } from './static/page-files.js';
import { offeredWorkspaces } from './workspaces/offered-workspaces.js';
import { CookieSessions, createSecret } from './security/access-token.js';
import { AttemptThrottle } from './security/attempt-throttle.js';
import { allowedHostsFor } from './security/request-guard.js';
import { SignInCodes } from './security/sign-in-codes.js';
import { TurnRunner } from './turns/turn-runner.js';
import { sharedEventReadsOf } from './live/shared-event-reads.js';
import { createWebApp } from './web-app.js';
import type { WebContext } from './web-context.js';

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  /**
   * The agent the server reads sessions through, follows their changes with
   * (`openChangeFeed`) and runs turns with. Web turns ask a person through the core's
   * `approvals` broker (`createAgentCore({ approvals })`); a core without one denies every ask.
   */
  readonly core: AgentCore;
  /** The stores of the home the core runs on (`openClawsmithHome`'s `checkpoints` and `artifacts`). */
  readonly home: {
    /** The restore points, for the checkpoint list and diffs. */
    readonly checkpoints: CheckpointStore;
    /** The artifacts, for reading large tool output. */
    readonly artifacts: ArtifactStore;
  };
  /** Whether the core has a real model; false answers `provider_required` to a new turn. Default true. */
  readonly canRunTurns?: boolean;
  /**
   * The system prompt of a turn this server starts, from the session's workspace (the cli gives
   * the same prompt as `clawsmith run`: instructions, project files, the skill list). Without it,
   * or when it returns undefined, the core's own `systemPrompt` applies.
   */
  readonly systemPrompt?: (session: { readonly id: string; readonly workspaceRoot: string }) => string | undefined;
  /**
   * The rules and hooks of a session's workspace for a turn this server starts (the cli reads the
   * workspace's settings files with core's `effectiveSettings`, under the same trust rule as
   * `clawsmith run`), added to the core's. Throwing refuses the turn with the error's message.
   */
  readonly settingsFor?: (session: { readonly id: string; readonly workspaceRoot: string }) => TurnSettings | undefined;
  /**
   * Told the W3C trace context of a `POST /api/sessions/:id/turns` that sent a valid `traceparent`
   * header, before the turn starts (`@clawsmith/telemetry`'s `continueTrace`).
   */
  readonly continueTrace?: (sessionId: string, parent: TraceContext) => void;
  /** Address to bind; default `127.0.0.1`. Anything else exposes the API to the network: the caller warns. */
  readonly host?: string;
  /** Port; default 0 (a free one). */
  readonly port?: number;
  /** More names the `Host` header may carry (besides the bound address and `localhost`). */
  readonly allowedHosts?: readonly string[];
  /**
   * The API token, accepted as `Authorization: Bearer` for the whole run; default a fresh random
   * one (32 bytes). It is never a sign-in code: `POST /api/login` refuses it.
   */
  readonly token?: string;
  /** How long an unused sign-in code (the `#token=` of a sign-in URL) stays valid; default 600,000 ms (10 minutes). */
  readonly signInCodeTtlMs?: number;
  /** Most event streams open at once; default 100. */
  readonly maxStreams?: number;
  /** Silence before a stream sends a keep-alive comment; default 15,000 ms. */
  readonly heartbeatMs?: number;
  /** How long a stream client may leave a page unread before it is dropped; default 30,000 ms. */
  readonly stallTimeoutMs?: number;
  /**
   * On SQLite, how often the store is checked for other processes' commits; default 25 ms. On
   * PostgreSQL other processes' commits are announced (`LISTEN`/`NOTIFY`) and nothing is polled.
   */
  readonly pollIntervalMs?: number;
  /** The built page to serve at `/`; default the package's `dist/page` (written by its `build` target). */
  readonly pageDirectory?: string;
  /**
   * The folders the page may start new sessions in (`GET /api/workspaces`, `POST /api/sessions`);
   * each must be an existing directory (kept as its real path). Default none: the page then
   * offers no new session. The browser can only choose among these, never name another folder.
   */
  readonly workspaces?: readonly string[];
  /** Wrong tokens or sign-in codes per client per minute before it must wait; default 10. */
  readonly maxWrongTokensPerMinute?: number;
}

/** A running server. */
export interface WebServer {
  /** `http://host:port` */
  readonly origin: string;
  readonly port: number;
  readonly host: string;
  /** The API token, for `Authorization: Bearer` (keep it secret). Never a sign-in code. */
  readonly token: string;
  /**
   * The first sign-in URL, made at start (`origin/#token=CODE`): the page reads the single-use
   * code from the fragment and trades it for the session cookie. It signs in once, within
   * `signInCodeTtlMs`; then it answers `sign_in_code_used` or `sign_in_code_expired`.
   */
  readonly loginUrl: string;
  /**
   * A new sign-in URL with a fresh single-use code, as valid as the first one (once, within
   * `signInCodeTtlMs`); earlier URLs stay as they are. At most 32 unused codes live at once:
   * making more expires the oldest.
   */
  createLoginUrl(): string;
  /**
   * Cancels the turns it runs, ends every stream and stops listening; resolves once no request's
   * handler still runs, so the database may be closed next.
   */
  close(): Promise<void>;
}

/** Starts the web server on `host:port` (default `127.0.0.1`, a free port) and resolves once it listens. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  const workspaces = offeredWorkspaces(options.workspaces ?? []);
  const token = options.token ?? createSecret();
  const signInCodes = new SignInCodes(options.signInCodeTtlMs !== undefined ? { ttlMs: options.signInCodeTtlMs } : {});
  const store = options.core.sessions;
  const watcher = await options.core.openChangeFeed({ pollIntervalMs: options.pollIntervalMs });
  const turns = new TurnRunner({
    core: options.core,
    store,
    canRunTurns: options.canRunTurns ?? true,
    ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.settingsFor ? { settingsFor: options.settingsFor } : {}),
    ...(options.continueTrace ? { continueTrace: options.continueTrace } : {}),
  });
  const guardHosts = new Set<string>();
  const context: WebContext = {
    core: options.core,
    store,
    checkpoints: options.home.checkpoints,
    artifacts: options.home.artifacts,
    watcher,
    turns,
    // A core without a broker denies every ask itself: an empty one answers `approval_elsewhere`.
    approvals: options.core.approvals ?? new ApprovalBroker(),
    guard: {
      token,
      signInCodes,
      sessions: new CookieSessions(),
      throttle: new AttemptThrottle({ limit: options.maxWrongTokensPerMinute ?? 10 }),
      allowedHosts: guardHosts,
    },
    page: loadPageFiles(options.pageDirectory),
    workspaces,
    streams: {
      open: 0,
      max: options.maxStreams ?? 100,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      stallTimeoutMs: options.stallTimeoutMs ?? 30_000,
    },
  };
  const app = createWebApp(context);
  // Requests whose handler still runs: close() waits for them, so its caller may close the
  // database next without a handler failing on it (an event stream's body is not waited for).
  const answering = new Set<Promise<unknown>>();
  const fetch: typeof app.fetch = (request, ...rest) => {
    const answer = Promise.resolve(app.fetch(request, ...rest));
    answering.add(answer);
    void answer.finally(() => answering.delete(answer)).catch(() => {});
    return answer;
  };
  let server: Server;
  const port = await new Promise<number>((resolve, reject) => {
    server = serve({ fetch, hostname: host, port: options.port ?? 0 }) as Server;
    server.once('error', reject);
    server.once('listening', () => resolve((server.address() as AddressInfo).port));
  }).catch(async (error: unknown) => {
    await watcher.close();
    throw error;
  });
  for (const allowed of allowedHostsFor(host, port, options.allowedHosts ?? [])) guardHosts.add(allowed);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  const createLoginUrl = () => `${origin}/#token=${signInCodes.create()}`;
  return {
    origin,
    port,
    host,
    token,
    loginUrl: createLoginUrl(),
    createLoginUrl,
    close() {
      closing ??= (async () => {
        // Streams end first: a stream woken by the feed's last wake-up would read on meanwhile.
        sharedEventReadsOf(context).close();
        await watcher.close();
        await turns.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await Promise.allSettled([...answering]);
      })();
      return closing;
    },
  };
}

// Test harness: a real home in a temporary folder, a real AgentCore with the scripted provider,
// and the real web server listening on 127.0.0.1. Nothing is mocked.
import { request as httpRequest } from 'node:http';
import {
  ApprovalBroker,
  createAgentCore,
  createBuiltinTools,
  openClawsmithHome,
  type AgentCore,
  type ClawsmithHome,
  type ToolSource,
} from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { createTestdir, type TestTree } from '@clawsmith/test-utils';
import { onTestFinished } from 'vitest';
import { startWebServer, type WebServer, type WebServerOptions } from '../web-server.js';

export interface WebHarness {
  readonly server: WebServer;
  readonly core: AgentCore;
  readonly home: ClawsmithHome;
  readonly store: SessionStore;
  readonly workspace: string;
  readonly homePath: string;
  /** fetch with the bearer token (and a same-origin Origin on state changes, like the page). */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** fetch with nothing added. */
  raw(path: string, init?: RequestInit): Promise<Response>;
}

export interface WebHarnessOptions extends Partial<Omit<WebServerOptions, 'core' | 'home'>> {
  readonly responses?: readonly ScriptedResponse[];
  readonly files?: TestTree;
  readonly permissionMode?: 'default' | 'accept-edits' | 'read-only' | 'full-auto';
  /** An existing home to serve (kept after the test); default a fresh temporary one. */
  readonly homePath?: string;
  /** Scripts of subagents by delegating call id; turns delegation on. */
  readonly children?: Readonly<Record<string, readonly ScriptedResponse[]>>;
  /** Tools beyond the built-in ones (as a plugin or an MCP server would add them). */
  readonly extensions?: readonly ToolSource[];
}

export async function createWebHarness(options: WebHarnessOptions = {}): Promise<WebHarness> {
  const workspaceDir = createTestdir(options.files ?? {});
  const homeDir = options.homePath
    ? { path: options.homePath, remove: () => undefined }
    : createTestdir({}, 'clawsmith-home-');
  const home = await openClawsmithHome(homeDir.path);
  const approvals = new ApprovalBroker();
  const provider = createScriptedProvider({
    script: {
      responses: [...(options.responses ?? [{ text: 'Done.' }])],
      ...(options.children
        ? {
            children: Object.fromEntries(
              Object.entries(options.children).map(([id, responses]) => [id, { responses: [...responses] }]),
            ),
          }
        : {}),
    },
  });
  const core = createAgentCore({
    db: home.db,
    provider,
    ...(options.children
      ? { delegation: { providerFor: (child) => provider.childProvider(child.parentToolCallId) } }
      : {}),
    checkpoints: home.checkpoints,
    artifacts: home.artifacts,
    builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
    permissionMode: options.permissionMode ?? 'accept-edits',
    approvals,
    ...(options.extensions ? { extensions: options.extensions } : {}),
  });
  const {
    responses: _responses,
    files: _files,
    permissionMode: _mode,
    homePath: _home,
    children: _children,
    extensions: _extensions,
    ...serverOptions
  } = options;
  const server = await startWebServer({ core, home, ...serverOptions });
  onTestFinished(async () => {
    await server.close();
    await core.close();
    await home.close();
    workspaceDir.remove();
    homeDir.remove();
  });
  return {
    server,
    core,
    home,
    store: new SessionStore(home.db),
    workspace: workspaceDir.path,
    homePath: homeDir.path,
    api(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${server.token}`);
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        headers.set('origin', server.origin);
      }
      return fetch(`${server.origin}${path}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}),
      });
    },
    raw: (path, init) => fetch(`${server.origin}${path}`, init),
  };
}

/** A request with headers fetch will not let a test set (`Host`), over node:http. */
export function rawHttp(
  server: WebServer,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

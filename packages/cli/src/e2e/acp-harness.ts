// Test harness for `clawsmith acp`: runs the BUILT binary as a child process and speaks to it as
// an editor does, with the client side of the official ACP library over the child's stdio. It
// records every session/update and answers session/request_permission from a queue the test
// fills. Not part of the build.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientContext,
  type ClientConnection,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { BIN, childEnvironment } from './cli-harness.js';

/** How the test editor answers the next permission request. */
export type PermissionAnswer = 'allow' | 'allow-session' | 'deny' | 'cancelled' | 'error';

/** How the test editor answers the next form (`elicitation/create`): the person's action and values. */
export interface FormAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Record<string, string | number | boolean | string[]>;
}

/** A running `clawsmith acp` with an editor connection to it. */
export interface AcpEditor {
  readonly child: ChildProcess;
  readonly agent: ClientContext;
  readonly connection: ClientConnection;
  /** Every update received, in order. */
  readonly updates: SessionNotification[];
  /** Every permission request received, in order. */
  readonly permissionRequests: RequestPermissionRequest[];
  /** Answers for the coming permission requests, taken in order. */
  readonly answers: PermissionAnswer[];
  /** Every form (`elicitation/create`) the agent asked the editor to fill in, in order. */
  readonly formRequests: Record<string, unknown>[];
  /** Answers for the coming forms, taken in order (none left: cancel). */
  readonly formAnswers: FormAnswer[];
  /** Resolves with the first update (already received or coming) that matches. */
  waitForUpdate(match: (update: SessionUpdate, sessionId: string) => boolean): Promise<SessionUpdate>;
  /** What the child wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the child has exited. */
  readonly exited: Promise<number | null>;
}

/** Starts `clawsmith acp ...args` with `home` and extra environment, and connects to it as an editor. */
export function startAcpEditor(
  args: readonly string[],
  options: { home: string; cwd?: string; env?: Record<string, string | undefined> },
): AcpEditor {
  const child = spawn(process.execPath, [BIN, 'acp', ...args], {
    cwd: options.cwd ?? options.home,
    env: childEnvironment(options.home, options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const answers: PermissionAnswer[] = [];
  const formRequests: Record<string, unknown>[] = [];
  const formAnswers: FormAnswer[] = [];
  const waiters: {
    match: (update: SessionUpdate, sessionId: string) => boolean;
    resolve: (update: SessionUpdate) => void;
  }[] = [];
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters])
        if (waiter.match(params.update, params.sessionId)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissionRequests.push(params);
      const answer = answers.shift() ?? 'deny';
      if (answer === 'error') throw new Error('the test editor refuses to answer');
      if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      return { outcome: { outcome: 'selected', optionId: answer } };
    })
    .onRequest('elicitation/create', ({ params }) => {
      formRequests.push(params as Record<string, unknown>);
      return { ...(formAnswers.shift() ?? { action: 'cancel' }) };
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  return {
    child,
    agent: connection.agent,
    connection,
    updates,
    permissionRequests,
    answers,
    formRequests,
    formAnswers,
    waitForUpdate(match) {
      const found = updates.find((notification) => match(notification.update, notification.sessionId));
      if (found) return Promise.resolve(found.update);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then(() => reject(new Error(`clawsmith acp exited before the update came; stderr: ${stderr}`)));
      });
    },
    stderr: () => stderr,
    exited,
  };
}

/** Ids of live processes whose command line contains `marker` (zombies excluded). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (commandLine.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Polls a real condition (a process table, a file) until it holds; fails after `limitMs`. */
export async function eventually(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The text of every agent message chunk of `sessionId`, joined. */
export function agentText(updates: readonly SessionNotification[], sessionId: string): string {
  return updates
    .filter((notification) => notification.sessionId === sessionId)
    .map((notification) => notification.update)
    .filter((update) => update.sessionUpdate === 'agent_message_chunk')
    .map((update) => (update.content.type === 'text' ? update.content.text : ''))
    .join('');
}

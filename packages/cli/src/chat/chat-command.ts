import { createInterface, type Interface } from 'node:readline';
import type { ApprovalAnswer, ApprovalRequest, SessionEvent } from '@clawsmith/core';
import type { McpElicitationAnswer, McpElicitationRequest } from '@clawsmith/mcp';
import type { Provider } from '@clawsmith/providers';
import type { z } from 'zod';
import { reportError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import {
  explicitWorkspace,
  openAgentRuntime,
  openOrCreateSession,
  resolveTurn,
  resolveWorkspace,
  type AgentRuntime,
} from '../commands/agent-runtime.js';
import { isScriptProvider, scriptExhaustionNote, selectProvider } from '../commands/provider-selection.js';
import { selectContext } from '../commands/context-options.js';
import { selectSubagents } from '../commands/subagent-options.js';
import { selectNetwork } from '../commands/network-options.js';
import { entryExtensions } from '../extensions/extensions-composition.js';
import {
  checkpointLines,
  checkpointTurns,
  formatDiff,
  sessionLines,
  sessionTurnSummaries,
} from '../commands/store-commands.js';
import { compactionLine, formatTodos } from '../terminal/event-summary.js';
import { oneLine, terminalSafe } from '../terminal/terminal-text.js';
import { terminalStyle, type TerminalStyle } from '../terminal/terminal-style.js';
import { TranscriptPrinter } from '../terminal/transcript-printer.js';
import { runOptions } from '../commands/run-turn-command.js';
import { parseCommandOptions } from '../options/command-options.js';
import { approvalPreview } from './approval-preview.js';
import { confirmed, parseApprovalAnswer, parseSlashCommand, SLASH_HELP } from './slash-commands.js';

/** Options of `clawsmith chat`: those of `run` without `--json`. */
const chatOptions = runOptions.omit({ json: true });
type ChatOptions = z.output<typeof chatOptions>;

const EXIT = Symbol('exit');

/** Lines typed by the person: answers to an approval go to it, everything else waits in order. */
class LineSource {
  readonly #queue: string[] = [];
  #waiting: ((line: string | null) => void) | undefined;
  #answer: ((line: string) => void) | undefined;
  #closed = false;

  push(line: string): void {
    if (this.#answer) {
      const answer = this.#answer;
      this.#answer = undefined;
      answer(line);
    } else if (this.#waiting) {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting(line);
    } else this.#queue.push(line);
  }

  close(): void {
    this.#closed = true;
    this.#waiting?.(null);
    this.#waiting = undefined;
  }

  /** The next line, or null at the end of input. */
  next(): Promise<string | null> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  /** The next line typed while a turn waits for an answer (never queued input typed earlier). */
  answer(signal: AbortSignal): Promise<string | null> {
    if (this.#closed || signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#answer = undefined;
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#answer = (line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      };
    });
  }
}

/** The interactive session: a prompt loop over one agent session. */
class ChatLoop {
  readonly #style: TerminalStyle = terminalStyle(process.stdout);
  readonly #printer = new TranscriptPrinter(process.stdout, this.#style);
  readonly #lines = new LineSource();
  #readline: Interface | undefined;
  #runtime: AgentRuntime | undefined;
  #provider: Provider | undefined;
  #sessionId = '';
  #workspaceRoot = '';
  #systemPrompt = '';
  #turn: AbortController | undefined;
  #exitArmed = false;
  #exitRequested: (() => void) | undefined;
  /** Whether the approval question waits for its answer (a single key gives it on a terminal). */
  #awaitingApprovalKey = false;
  /** An Enter pressed by habit right after a single-key answer is not an (empty) line of its own. */
  #dropEmptyLine = false;

  async run(options: ChatOptions, command: unknown): Promise<number> {
    const requestedWorkspace = explicitWorkspace(command, options.workspace);
    const workspaceRoot =
      options.session === undefined ? resolveWorkspace(options.workspace) : (requestedWorkspace ?? '');
    const provider = await selectProvider(options);
    this.#provider = provider;
    const subagents = await selectSubagents(options);
    const network = selectNetwork(options);
    this.#runtime = await openAgentRuntime({
      context: selectContext(options),
      home: options.home,
      provider,
      subagents,
      network,
      permissionMode: options.permissionMode,
      approvalHandler: (request, signal) => this.#approve(request, signal),
      ...(options.traceparent !== undefined ? { traceparent: options.traceparent } : {}),
      mcp: {
        ...(workspaceRoot ? { workspaceRoot } : {}),
        onNotice: (notice) => process.stderr.write(`clawsmith: ${notice}\n`),
        onElicitation: (request) => this.#elicit(request),
      },
      extensions: entryExtensions(workspaceRoot),
      settings: {
        workspaceRoot: workspaceRoot || resolveWorkspace(options.workspace),
        flags: options,
        onNotice: (notice) => process.stderr.write(`clawsmith: ${notice}\n`),
      },
    });
    const { core } = this.#runtime;
    const unsubscribe = core.subscribe((event: SessionEvent) => {
      if (event.sessionId === this.#sessionId) this.#printer.event(event);
    });
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const readline = createInterface({ input: process.stdin, output: process.stdout, terminal });
    this.#readline = readline;
    readline.on('line', (line) => {
      const dropped = this.#dropEmptyLine && line === '';
      this.#dropEmptyLine = false;
      if (!dropped) this.#lines.push(line);
    });
    readline.on('close', () => this.#lines.close());
    readline.on('SIGINT', () => this.#interrupt());
    process.on('SIGINT', this.#interrupt);
    if (terminal) process.stdin.on('keypress', this.#approvalKey);
    try {
      const session = await openOrCreateSession(core, options.session, workspaceRoot, undefined, requestedWorkspace);
      this.#sessionId = session.id;
      this.#workspaceRoot = session.workspaceRoot;
      this.#systemPrompt = this.#runtime.systemPrompt(session.workspaceRoot, options);
      this.#say(
        `${this.#style.bold('clawsmith')} · session ${session.id} · workspace ${oneLine(session.workspaceRoot, 200)}`,
      );
      this.#say(
        this.#style.dim(
          `mode ${options.permissionMode} · model ${provider.name}/${oneLine(provider.model, 60)} · /help for commands · Ctrl-C cancels, twice exits`,
        ),
      );
      return await this.#loop();
    } finally {
      process.off('SIGINT', this.#interrupt);
      process.stdin.off('keypress', this.#approvalKey);
      unsubscribe();
      readline.close();
      await this.#runtime.close();
    }
  }

  async #loop(): Promise<number> {
    const exit = new Promise<typeof EXIT>((resolve) => (this.#exitRequested = () => resolve(EXIT)));
    for (;;) {
      this.#prompt();
      const line = await Promise.race([this.#lines.next(), exit]);
      if (line === EXIT) return EXIT_CODES.interrupted;
      if (line === null) return EXIT_CODES.ok;
      this.#exitArmed = false;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        if ((await this.#slash(text)) === 'exit') return EXIT_CODES.ok;
        continue;
      }
      if ((await Promise.race([this.#runTurn(text), exit])) === EXIT) return EXIT_CODES.interrupted;
    }
  }

  async #runTurn(prompt: string): Promise<void> {
    const { core } = this.#runtime!;
    const controller = new AbortController();
    this.#turn = controller;
    const provider = this.#provider!;
    const pastEndBefore = isScriptProvider(provider) ? provider.requestsPastEnd : 0;
    try {
      const result = await core.runTurn({
        sessionId: this.#sessionId,
        prompt,
        systemPrompt: this.#systemPrompt,
        signal: controller.signal,
        onTextDelta: (text) => this.#printer.textDelta(text),
      });
      this.#printer.stop();
      const color = result.status === 'completed' ? this.#style.dim : this.#style.yellow;
      const error = result.error ? `: ${oneLine(result.error.message, 200)} [${result.error.code}]` : '';
      const number = (await this.#turnNumber(result.turnId)) ?? '';
      this.#say(
        color(
          `turn ${number} ${result.turnId} ${result.status}${error}; ${result.changedFiles.length} file(s) changed${scriptExhaustionNote(provider, pastEndBefore)}`,
        ),
      );
    } catch (error) {
      this.#printer.stop();
      reportError(error);
    } finally {
      this.#turn = undefined;
    }
  }

  async #turnNumber(turnId: string): Promise<string | undefined> {
    const turn = (await this.#runtime!.core.listTurns(this.#sessionId)).find(
      (candidate) => candidate.turnId === turnId,
    );
    return turn ? `#${turn.ordinal}` : undefined;
  }

  /** `/compact`: the line the compaction's event gets, or why there was nothing to take out. */
  async #compact(): Promise<string> {
    const { core } = this.#runtime!;
    const result = await core.compact(this.#sessionId);
    if (!result.compacted)
      return this.#style.dim(
        'Nothing to compact: no older tool result is sent in full and nothing is old enough to summarise.',
      );
    const events = await core.listEvents(this.#sessionId);
    const event = events.findLast((candidate) => candidate.type === 'context.compacted');
    return event?.type === 'context.compacted' ? compactionLine(event) : 'Compacted.';
  }

  async #slash(text: string): Promise<'exit' | void> {
    const { core } = this.#runtime!;
    const command = parseSlashCommand(text);
    try {
      switch (command.kind) {
        case 'help':
          return this.#say(SLASH_HELP);
        case 'exit':
          return 'exit';
        case 'invalid':
          return this.#say(this.#style.yellow(command.message));
        case 'todos':
          return this.#say(formatTodos(await core.getTodos(this.#sessionId), this.#style));
        case 'compact':
          return this.#say(await this.#compact());
        case 'sessions': {
          const sessions = await core.listSessions();
          const summaries = await sessionTurnSummaries(core, sessions);
          return this.#say(sessionLines(sessions, this.#style, await core.listDelegations(), summaries));
        }
        case 'checkpoints': {
          const turns = await checkpointTurns(core, this.#sessionId);
          return this.#say(checkpointLines(await core.listCheckpoints(this.#sessionId), turns, this.#style));
        }
        case 'diff': {
          const turnId = await resolveTurn(core, this.#sessionId, command.turn);
          return this.#say(formatDiff(await core.diff(this.#sessionId, turnId, command.path)));
        }
        case 'undo-last':
          return await this.#undoLast();
        case 'undo': {
          const turnId = await resolveTurn(core, this.#sessionId, command.turn);
          const result = await core.restore(this.#sessionId, turnId, command.scope);
          const paths = result.restoredPaths.map((path) => `\n  restored ${terminalSafe(path)}`).join('');
          const messages =
            result.messageCount === undefined ? '' : `\n  the conversation now has ${result.messageCount} message(s)`;
          return this.#say(`Undid turn ${turnId} (${command.scope}).${paths}${messages}`);
        }
      }
    } catch (error) {
      reportError(error);
    }
  }

  /** `/undo` alone: says which turn and files it would put back, and undoes both only on `y`. */
  async #undoLast(): Promise<void> {
    const { core } = this.#runtime!;
    const turn = (await core.listTurns(this.#sessionId)).at(-1);
    if (!turn) return this.#say('Nothing to undo: this session has no turns yet.');
    const paths = (await checkpointTurns(core, this.#sessionId)).get(turn.turnId)?.changedPaths ?? [];
    const files =
      paths.length === 0
        ? '  no file to put back'
        : paths.map((path) => `  put back ${terminalSafe(oneLine(path, 200))}`).join('\n');
    this.#say(
      `Undo turn #${turn.ordinal} ${this.#style.bold(turn.turnId)}  ${oneLine(turn.prompt, 60)}\n${files}\n  and cut the conversation back to before it`,
    );
    this.#prompt('  Undo it? [y]es / [N]o: ');
    if (!confirmed(await this.#lines.next())) return this.#say('Nothing undone.');
    const result = await core.restore(this.#sessionId, turn.turnId, 'all');
    const restored = result.restoredPaths.map((path) => `\n  restored ${terminalSafe(path)}`).join('');
    this.#say(`Undid turn #${turn.ordinal} ${turn.turnId} (files and conversation).${restored}`);
  }

  // A server's question during a call of this turn: asked like an approval, on the same lines.
  async #elicit(request: McpElicitationRequest): Promise<McpElicitationAnswer | undefined> {
    const signal = this.#turn?.signal;
    if (!signal || signal.aborted) return undefined;
    this.#printer.stop();
    const { askElicitation } = await import('../mcp/elicitation-prompt.js');
    return askElicitation(request, {
      say: (text) => this.#say(text),
      ask: (prompt) => {
        this.#prompt(prompt);
        return this.#lines.answer(signal);
      },
    });
  }

  async #approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    this.#printer.stop();
    this.#say(
      `${this.#style.yellow('?')} ${this.#style.bold(oneLine(request.toolName, 40))} ${oneLine(request.summary, 160)}\n  ${this.#style.dim(`risk ${request.risk}: ${oneLine(request.reason, 200)}`)}`,
    );
    const preview = approvalPreview(request, this.#workspaceRoot, this.#style);
    if (preview.length > 0) this.#say(preview.map((line) => `    ${line}`).join('\n'));
    for (;;) {
      this.#prompt('  Allow? [y]es / [n]o / [a]lways for this session: ');
      this.#awaitingApprovalKey = true;
      const line = await this.#lines.answer(signal).finally(() => (this.#awaitingApprovalKey = false));
      if (line === null) return 'deny';
      const answer = parseApprovalAnswer(line);
      if (answer !== undefined) return answer;
      this.#say('  Type y, n or a.');
    }
  }

  /**
   * On a terminal, y, n or a typed as the first key of the answer gives it at once: readline has
   * already echoed the key, so ending its line here draws the question once, answered, and
   * leaves nothing behind for the next prompt. Anything longer still ends with Enter, and an
   * Enter pressed out of habit after the key is dropped (it would otherwise disarm Ctrl-C twice).
   */
  readonly #approvalKey = (_text: string | undefined, key: { name?: string; ctrl?: boolean; meta?: boolean }) => {
    const readline = this.#readline;
    if (key.name !== 'return' && key.name !== 'enter') this.#dropEmptyLine = false;
    if (!this.#awaitingApprovalKey || !readline || key.ctrl || key.meta) return;
    if (!/^[yna]$/i.test(readline.line)) return;
    readline.write('', { name: 'return' });
    this.#dropEmptyLine = true;
  };

  readonly #interrupt = () => {
    if (this.#turn && !this.#turn.signal.aborted) {
      this.#turn.abort();
      this.#exitArmed = true;
      this.#printer.stop();
      this.#say(this.#style.yellow('Cancelling the turn… (Ctrl-C again to exit)'));
      return;
    }
    if (this.#exitArmed) {
      // A turn still cancelling holds tools and the database; a person asking twice wants out now.
      if (this.#turn) process.exit(EXIT_CODES.interrupted);
      this.#exitRequested?.();
      return;
    }
    this.#exitArmed = true;
    this.#say(this.#style.dim('(Ctrl-C again to exit, or /exit)'));
    this.#prompt();
  };

  #prompt(text = '› '): void {
    this.#readline?.setPrompt(text);
    this.#readline?.prompt();
  }

  #say(text: string): void {
    this.#printer.line(text);
  }
}

/** `clawsmith` / `clawsmith chat`: the interactive session. */
export async function chatCommand(rawOptions: Record<string, unknown>, command: unknown): Promise<number> {
  return new ChatLoop().run(parseCommandOptions(chatOptions, rawOptions, 'chat'), command);
}

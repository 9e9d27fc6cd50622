import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { SessionEvent } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { openAgentRuntime } from '../commands/agent-runtime.js';
import { checkpointLines, formatDiff } from '../commands/store-commands.js';
import { formatTodos, indentedTail } from '../terminal/event-summary.js';
import { terminalStyle } from '../terminal/terminal-style.js';
import { terminalSafe } from '../terminal/terminal-text.js';
import { TranscriptPrinter } from '../terminal/transcript-printer.js';
import { createDemoProvider } from './demo-provider.js';
import { loadDemoScript } from './demo-script.js';

const demoOptions = z.object({
  home: z.string().optional(),
  keep: z.boolean().optional(),
});

function listFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(root, join(folder, entry.name)) : [relative(root, join(folder, entry.name))],
    )
    .sort();
}

/**
 * `clawsmith demo`: the scripted tour. It builds a fresh temporary workspace (and home, unless
 * `--home`), runs the demo script's turns through the real core in `full-auto` mode, undoes one
 * turn, prints the final state, and exits non-zero if anything the tour promises did not happen.
 */
export async function demoCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(demoOptions, rawOptions, 'demo');
  const style = terminalStyle(process.stdout);
  const out = new TranscriptPrinter(process.stdout, style, style.cyan('model: '));
  const script = await loadDemoScript();
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'clawsmith-demo-')));
  const workspace = join(scratch, 'workspace');
  const home = options.home ?? join(scratch, 'home');
  for (const [path, content] of Object.entries(script.workspace)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  mkdirSync(workspace, { recursive: true });
  const removeScratch = () => {
    if (!options.keep) rmSync(scratch, { recursive: true, force: true });
  };
  // Ctrl-C (or a kill) during the tour still removes the temporary folders.
  const onSignal = (signal: NodeJS.Signals) => {
    removeScratch();
    process.exit(signal === 'SIGINT' ? EXIT_CODES.interrupted : EXIT_CODES.failed);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  // Pasted commands must reach this home, not ~/.clawsmith.
  const homeFlag = ` --home ${home}`;

  let latestArtifactId: string | undefined;
  const seen: SessionEvent[] = [];
  const provider = await createDemoProvider(
    script.turns.flatMap((turn) => turn.responses),
    () => latestArtifactId,
  );
  const runtime = await openAgentRuntime({ home, provider, permissionMode: 'full-auto' });
  const problems: string[] = [];
  try {
    const { core } = runtime;
    out.line(style.bold('clawsmith demo') + style.dim(' — a scripted tour; no API key, no network'));
    out.line(
      style.dim(
        'The "model" here is a script (demo-script.json) that replays fixed responses. Everything it calls is real:\n' +
          'the file tools, the command sandbox and its hard refusals, the artifact store, todos, checkpoints and undo.\n' +
          'Permission mode: full-auto (nothing asks; the sandbox and the hard refusals still apply).',
      ),
    );
    out.line(style.dim(`workspace ${workspace}\nhome      ${home}`));
    const unsubscribe = core.subscribe((event: SessionEvent) => {
      seen.push(event);
      if (event.type === 'tool.completed' && event.result.artifact) latestArtifactId = event.result.artifact.id;
      out.event(event);
    });
    const session = await core.createSession({ workspaceRoot: workspace, title: 'clawsmith demo' });
    const turnIds: string[] = [];
    for (const [index, turn] of script.turns.entries()) {
      out.line(`\n${style.bold(`── turn ${index + 1}`)} ${style.cyan('you:')} ${turn.prompt}`);
      out.line(style.dim(`   (${turn.note})`));
      const result = await core.runTurn({
        sessionId: session.id,
        prompt: turn.prompt,
        onTextDelta: (text) => out.textDelta(text),
      });
      out.endLine();
      turnIds.push(result.turnId);
      if (result.status !== 'completed')
        problems.push(`turn ${index + 1} ended ${result.status}${result.error ? `: ${result.error.message}` : ''}`);
    }

    const undoTurnId = turnIds[script.undo.turn - 1]!;
    out.line(`\n${style.bold('── undo')} turn ${script.undo.turn} (${undoTurnId})`);
    out.line(
      style.dim(
        `   clawsmith undo diff ${script.undo.turn} ${script.undo.diffPath} --session ${session.id}${homeFlag}`,
      ),
    );
    out.line(indentedTail(formatDiff(await core.diff(session.id, undoTurnId, script.undo.diffPath)), style, 40));
    out.line(style.dim(`   clawsmith undo files ${script.undo.turn} --session ${session.id}${homeFlag}`));
    const undone = await core.restore(session.id, undoTurnId, 'files');
    for (const path of undone.restoredPaths) out.line(`   restored ${terminalSafe(path)}`);
    unsubscribe();

    out.line(`\n${style.bold('── final state')}`);
    out.line('workspace files:');
    for (const path of listFiles(workspace)) out.line(`  ${terminalSafe(path)}`);
    out.line('src/greet.mjs:');
    out.line(indentedTail(readFileSync(join(workspace, 'src/greet.mjs'), 'utf8'), style, 20));
    out.line('todos:');
    out.line(formatTodos(await core.getTodos(session.id), style));
    out.line('checkpoints:');
    const turns = new Map((await core.listTurns(session.id)).map((turn) => [turn.turnId, turn]));
    out.line(checkpointLines(await core.listCheckpoints(session.id), turns, style));

    const completed = seen.filter((event) => event.type === 'tool.completed');
    const statusOf = (id: string) =>
      (completed.find((event) => event.toolCallId === id)?.result as { status?: string } | undefined)?.status;
    if (statusOf('call_danger') === 'success' || statusOf('call_danger') === undefined)
      problems.push('the catastrophic command was not refused');
    if (latestArtifactId === undefined) problems.push('no tool output became an artifact');
    if (statusOf('call_middle') !== 'success') problems.push('read_artifact did not read the artifact');
    if (undone.restoredPaths.length === 0) problems.push('the undo restored nothing');
    out.line(
      style.dim(
        `\nsession ${session.id} (${options.keep || options.home ? 'kept' : 'removed with the temporary folder'}).\n` +
          'Next: `clawsmith run --script your-responses.json "..."` replays your own script; ' +
          '`clawsmith --provider openai --model gpt-4.1` (OPENAI_API_KEY) or `--provider anthropic --model claude-sonnet-4-5` (ANTHROPIC_API_KEY) uses a real model.',
      ),
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    out.stop();
    await runtime.close();
    removeScratch();
    if (options.keep) out.line(style.dim(`kept ${scratch}; look at it with: clawsmith sessions${homeFlag}`));
  }
  if (problems.length > 0) {
    process.stderr.write(
      `clawsmith demo: the tour did not go as scripted:\n${problems.map((problem) => `  - ${terminalSafe(problem)}`).join('\n')}\n`,
    );
    return EXIT_CODES.failed;
  }
  return EXIT_CODES.ok;
}

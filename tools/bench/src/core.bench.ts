// AgentCore's own overhead per tool call (no-op read tool, events and messages persisted in a
// real SQLite home), a warm direct read_file call (AgentCore.callTool, as `mcp serve` makes it)
// with its processor time, a batch of eight read-only 20 ms calls beside one such call, and the
// size of a fresh session's first request.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { firstRequestTools, requestToolBytes } from './first-request-tools.js';
import { measure, report } from './measure.js';
import { toolCallingCore } from './tool-calling-core.js';

const CALLS_PER_TURN = 20;
const RUNS = 15;
const WARMUP = 3;

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: false,
  inputSchema: z.object({ index: z.number() }),
  summarize: (input) => `noop ${input.index}`,
  execute: async (input) => `noop ${input.index}`,
});

const wait = defineTool({
  name: 'wait',
  description: 'Waits 20 ms.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: true,
  inputSchema: z.object({ index: z.number() }),
  summarize: (input) => `wait ${input.index}`,
  execute: () => new Promise((resolve) => setTimeout(() => resolve('waited'), 20)),
});

async function turnTimer(tools: AnyToolDefinition[], callsPerTurn: number, toolName: string) {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  const responses: ScriptedResponse[] = [];
  for (let turn = 0; turn < RUNS + WARMUP; turn += 1) {
    responses.push({
      toolCalls: Array.from({ length: callsPerTurn }, (_, index) => ({
        id: `c${turn}-${index}`,
        name: toolName,
        arguments: { index },
      })),
    });
    responses.push({ text: 'done' });
  }
  const emptyTurns: ScriptedResponse[] = Array.from({ length: RUNS + WARMUP }, () => ({ text: 'done' }));
  const core = createAgentCore({
    db: opened.db,
    provider: createScriptedProvider({ script: { responses: callsPerTurn === 0 ? emptyTurns : responses } }),
    checkpoints: opened.checkpoints,
    builtinTools: tools,
    permissionMode: 'default',
  });
  const session = await core.createSession({ workspaceRoot: workspace });
  return {
    run: () => core.runTurn({ sessionId: session.id, prompt: 'go' }),
    close: async () => {
      await opened.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

const direct = await measure(
  `noop execute x${CALLS_PER_TURN}, called directly`,
  async () => {
    for (let index = 0; index < CALLS_PER_TURN; index += 1) await noop.execute({ index }, undefined as never);
  },
  RUNS,
  WARMUP,
);

const empty = await turnTimer([noop], 0, 'noop');
const emptyTurn = await measure('turn with no tool call', empty.run, RUNS, WARMUP);
await empty.close();

const withCalls = await turnTimer([noop], CALLS_PER_TURN, 'noop');
const callTurn = await measure(`turn with ${CALLS_PER_TURN} noop calls`, withCalls.run, RUNS, WARMUP);
await withCalls.close();

report('core turn cost', direct, [emptyTurn, callTurn]);
const perCall = (callTurn.medianMs - emptyTurn.medianMs) / CALLS_PER_TURN;
console.log(
  `\ncore overhead per call (median turn with calls - median empty turn) / ${CALLS_PER_TURN}: ${perCall.toFixed(3)} ms (aim: under 0.5 ms)`,
);

// A direct call is a turn of its own (claim, restore point, events, messages, release): its cost
// per call, beside reading the same file in this process, and its processor time per call over a
// block of calls (less inflated by the machine's load than waiting is).
async function directReadFile() {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  writeFileSync(join(workspace, 'notes.md'), `${'clawsmith reads this line.\n'.repeat(150)}`);
  const opened = await openClawsmithHome(home);
  const core = toolCallingCore(opened);
  const session = await core.createSession({ workspaceRoot: workspace });
  const call = async () => {
    const outcome = await core.callTool({ sessionId: session.id, name: 'read_file', arguments: { path: 'notes.md' } });
    if (outcome.result.status !== 'success') throw new Error(outcome.result.content);
  };
  const reference = await measure(
    'readFileSync of the same file',
    () => readFileSync(join(workspace, 'notes.md'), 'utf8'),
    200,
    20,
  );
  const timing = await measure('AgentCore.callTool read_file (warm)', call, 200, 20);
  const cpu = process.cpuUsage();
  for (let index = 0; index < 200; index += 1) await call();
  const used = process.cpuUsage(cpu);
  await core.close();
  await opened.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  return { reference, timing, cpuMsPerCall: (used.user + used.system) / 1000 / 200 };
}

const directRead = await directReadFile();
report('direct call', directRead.reference, [directRead.timing]);
console.log(
  `\ndirect read_file: ${directRead.timing.medianMs.toFixed(3)} ms median per call, ${directRead.cpuMsPerCall.toFixed(3)} ms processor time per call; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);

const one = await turnTimer([wait], 1, 'wait');
const oneCall = await measure('turn with one 20 ms read call', one.run, RUNS, WARMUP);
await one.close();
const eight = await turnTimer([wait], 8, 'wait');
const eightCalls = await measure('turn with eight 20 ms read calls (parallel batch)', eight.run, RUNS, WARMUP);
await eight.close();
report('read-only batch', oneCall, [eightCalls]);
console.log(`\nbatch of eight / one call: ${(eightCalls.medianMs / oneCall.medianMs).toFixed(2)}x (aim: under 1.5x)`);

// Request size of a fresh session composed as the CLI composes it (base tools, session tools,
// read_artifact, background command tools): the JSON of the first request's tools as the OpenAI
// adapter sends them, with the background tools always loaded (as before they were deferred) and
// deferred (the default).
async function firstRequestToolBytes(alwaysLoadedTools: readonly string[]): Promise<{ count: number; bytes: number }> {
  const tools = await firstRequestTools({ alwaysLoadedTools });
  return { count: tools.length, bytes: requestToolBytes(tools) };
}

const BACKGROUND_TOOLS = [
  'start_command',
  'list_commands',
  'command_terminal_capabilities',
  'command_status',
  'command_output',
  'command_input',
  'resize_command_pty',
  'cancel_command',
];
const before = await firstRequestToolBytes(BACKGROUND_TOOLS);
const after = await firstRequestToolBytes([]);
console.log('\n## request size of a fresh session (tool schemas as sent to an OpenAI-compatible server)');
console.log('| composition | tools | bytes | ratio to background tools loaded |');
console.log('|---|---:|---:|---:|');
console.log(`| background command tools always loaded (before) | ${before.count} | ${before.bytes} | 1.00x |`);
console.log(
  `| background command tools deferred (default) | ${after.count} | ${after.bytes} | ${(after.bytes / before.bytes).toFixed(2)}x |`,
);

// Per-tool-call cost of OpenTelemetry tracing: the same turns of 50 no-op calls in a real SQLite
// home without telemetry (the reference), with telemetry off as shipped (no endpoint), and with
// the real SDK exporting OTLP over HTTP (protobuf, the default, and JSON) to a receiver on
// 127.0.0.1. Each variant keeps one telemetry for the whole run (as a process does) and runs in
// blocks of turns that end with a flush (every span and measurement of the block serialised and
// sent), so a block's process CPU holds that variant's whole cost and none of another variant's
// exports (metrics are exported at the flushes only: the default 60 s interval never comes round).
// Blocks rotate through the variants round after round, so the machine's load falls on every
// variant alike. No forced garbage collection between blocks: a full collection every 200 calls
// made V8 drop the compiled telemetry code, which then cost more than the tracing itself (0.38
// instead of 0.10 ms of CPU per call); young-generation collections run inside each block.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAgentCore, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { createTelemetry, type Telemetry } from '@clawsmith/telemetry';
import { startOtlpReceiver } from '@clawsmith/test-utils';
import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { report, timingOf } from './measure.js';

const CALLS_PER_TURN = 50;
const TURNS_PER_BLOCK = 4;
const ROUNDS = 15;
const WARMUP_ROUNDS = 2;

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

/**
 * Time (ms) spent inside `record` and `traceContextOf` (the in-line part of tracing), per variant.
 * Both are synchronous, so the clock around them is their own time; `performance.now()` costs far
 * less than reading the process CPU (a system call) would add to what it measures.
 */
const inline = new Map<string, number>();
let inlineOwner = '';

function timed<Arguments extends unknown[], Result>(
  work: (...parameters: Arguments) => Result,
): (...parameters: Arguments) => Result {
  return (...parameters) => {
    const start = performance.now();
    try {
      return work(...parameters);
    } finally {
      inline.set(inlineOwner, (inline.get(inlineOwner) ?? 0) + performance.now() - start);
    }
  };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** A variant: the telemetry its turns record into, or none at all (the reference). */
interface Variant {
  readonly label: string;
  readonly telemetry?: Telemetry;
  readonly cpuPerCall: number[];
  readonly wallPerCall: number[];
}

async function turnRunner(variant: Variant) {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  const responses: ScriptedResponse[] = [];
  for (let turn = 0; turn < (ROUNDS + WARMUP_ROUNDS) * TURNS_PER_BLOCK; turn += 1) {
    responses.push({
      usage: { inputTokens: 1000, outputTokens: 50 },
      toolCalls: Array.from({ length: CALLS_PER_TURN }, (_, index) => ({
        id: `c${turn}-${index}`,
        name: 'noop',
        arguments: { index },
      })),
    });
    responses.push({ text: 'done' });
  }
  const { telemetry } = variant;
  const core = createAgentCore({
    db: opened.db,
    provider: createScriptedProvider({ script: { responses } }),
    checkpoints: opened.checkpoints,
    builtinTools: [noop],
    permissionMode: 'default',
    retention: false,
    ...(telemetry ? { traceContext: timed(telemetry.traceContextOf) } : {}),
  });
  if (telemetry) core.subscribe(timed(telemetry.record));
  const session = await core.createSession({ workspaceRoot: workspace });
  return {
    run: () => core.runTurn({ sessionId: session.id, prompt: 'go' }),
    close: async () => {
      await core.close();
      await opened.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

const receiver = await startOtlpReceiver();
const exporting = (protocol: string) =>
  createTelemetry({
    environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
    model: { name: 'scripted', model: 'bench' },
  });
const variants: Variant[] = [
  { label: 'no telemetry', cpuPerCall: [], wallPerCall: [] },
  {
    label: 'telemetry off (no endpoint), subscribed',
    telemetry: await createTelemetry({ environment: {} }),
    cpuPerCall: [],
    wallPerCall: [],
  },
  {
    label: 'telemetry on, OTLP/HTTP protobuf',
    telemetry: await exporting('http/protobuf'),
    cpuPerCall: [],
    wallPerCall: [],
  },
  { label: 'telemetry on, OTLP/HTTP JSON', telemetry: await exporting('http/json'), cpuPerCall: [], wallPerCall: [] },
];
const runners = new Map<Variant, Awaited<ReturnType<typeof turnRunner>>>();
for (const variant of variants) runners.set(variant, await turnRunner(variant));

const callsPerBlock = TURNS_PER_BLOCK * CALLS_PER_TURN;
for (let round = 0; round < ROUNDS + WARMUP_ROUNDS; round += 1)
  for (let offset = 0; offset < variants.length; offset += 1) {
    // Rotated each round: no variant always runs right after the same other one.
    const variant = variants[(round + offset) % variants.length]!;
    inlineOwner = round >= WARMUP_ROUNDS ? variant.label : '';
    const wall = performance.now();
    const cpu = process.cpuUsage();
    for (let turn = 0; turn < TURNS_PER_BLOCK; turn += 1) await runners.get(variant)!.run();
    // The block ends once what it recorded has been exported.
    await variant.telemetry?.flush();
    if (round >= WARMUP_ROUNDS) {
      variant.cpuPerCall.push(cpuMs(process.cpuUsage(cpu)) / callsPerBlock);
      variant.wallPerCall.push((performance.now() - wall) / callsPerBlock);
    }
  }
for (const variant of variants) await variant.telemetry?.shutdown();
for (const runner of runners.values()) await runner.close();
await receiver.close();

const [reference, ...others] = variants.map((variant) => timingOf(`${variant.label}`, variant.wallPerCall));
report('telemetry cost per tool call (wall clock, ms; blocks of 4 turns of 50 calls)', reference!, others);
const [cpuReference, ...cpuOthers] = variants.map((variant) => timingOf(`${variant.label}`, variant.cpuPerCall));
report('telemetry cost per tool call (process CPU, ms; export of the block included)', cpuReference!, cpuOthers);
console.log(
  `\n| per tool call | extra wall ms (median blocks) | extra CPU ms (median blocks) | ms inside record/traceContextOf | aim |`,
);
console.log('|---|---:|---:|---:|---|');
for (const [index, timing] of others.entries()) {
  const variant = variants[index + 1]!;
  const inside = (inline.get(variant.label) ?? 0) / (ROUNDS * callsPerBlock);
  const cpu = cpuOthers[index]!.medianMs - cpuReference!.medianMs;
  console.log(
    `| ${variant.label} | ${(timing.medianMs - reference!.medianMs).toFixed(4)} | ${cpu.toFixed(4)} | ${inside.toFixed(4)} | ${index === 0 ? 'no measurable change' : '<= 0.2 ms'} |`,
  );
}
const traceRequests = receiver.requests.filter((request) => request.path === '/v1/traces');
console.log(
  `\nspans received (both encodings, decoded): ${receiver.spans().length}; trace export requests: ${traceRequests.length}`,
);

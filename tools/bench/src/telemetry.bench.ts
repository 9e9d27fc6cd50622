// Per-tool-call cost of OpenTelemetry tracing: the same turns of 50 no-op calls in a real SQLite
// home without telemetry (the reference), with telemetry off as shipped (no endpoint), and with
// the real SDK exporting OTLP over HTTP (protobuf, the default, and JSON) to a receiver on
// 127.0.0.1; runs interleaved, so the machine's load falls on every variant alike.
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
const RUNS = 21;
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

/** CPU time (ms) spent inside `record` and `traceContextOf` (the in-line part of tracing), per variant. */
const inline = new Map<Telemetry, number>();

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function timed<Arguments extends unknown[], Result>(
  telemetry: Telemetry,
  work: (...parameters: Arguments) => Result,
): (...parameters: Arguments) => Result {
  return (...parameters) => {
    const start = process.cpuUsage();
    try {
      return work(...parameters);
    } finally {
      inline.set(telemetry, (inline.get(telemetry) ?? 0) + cpuMs(process.cpuUsage(start)));
    }
  };
}

async function turnRunner(telemetry: Telemetry | undefined) {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  const responses: ScriptedResponse[] = [];
  for (let turn = 0; turn < RUNS + WARMUP; turn += 1) {
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
  const core = createAgentCore({
    db: opened.db,
    provider: createScriptedProvider({ script: { responses } }),
    checkpoints: opened.checkpoints,
    builtinTools: [noop],
    permissionMode: 'default',
    retention: false,
    ...(telemetry ? { traceContext: timed(telemetry, telemetry.traceContextOf) } : {}),
  });
  if (telemetry) core.subscribe(timed(telemetry, telemetry.record));
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
const off = await createTelemetry({ environment: {} });
const exporting = (protocol: string) =>
  createTelemetry({
    environment: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      // Metrics exported once a second, so the bench pays for their export too.
      OTEL_METRIC_EXPORT_INTERVAL: '1000',
    },
    model: { name: 'scripted', model: 'bench' },
  });
const protobuf = await exporting('http/protobuf');
const json = await exporting('http/json');
const variants = [
  {
    label: 'no telemetry',
    telemetry: undefined,
    runner: await turnRunner(undefined),
    samples: [] as number[],
    cpu: [] as number[],
  },
  {
    label: 'telemetry off (no endpoint), subscribed',
    telemetry: off,
    runner: await turnRunner(off),
    samples: [] as number[],
    cpu: [] as number[],
  },
  {
    label: 'telemetry on, OTLP/HTTP protobuf',
    telemetry: protobuf,
    runner: await turnRunner(protobuf),
    samples: [] as number[],
    cpu: [] as number[],
  },
  {
    label: 'telemetry on, OTLP/HTTP JSON',
    telemetry: json,
    runner: await turnRunner(json),
    samples: [] as number[],
    cpu: [] as number[],
  },
];
for (let round = 0; round < RUNS + WARMUP; round += 1)
  for (const variant of variants) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    await variant.runner.run();
    if (round >= WARMUP) {
      variant.samples.push(performance.now() - start);
      variant.cpu.push(cpuMs(process.cpuUsage(cpu)));
    }
  }
await protobuf.shutdown();
await json.shutdown();
for (const variant of variants) await variant.runner.close();
await receiver.close();

const [reference, ...others] = variants.map((variant) =>
  timingOf(`${variant.label} (turn of ${CALLS_PER_TURN} calls)`, variant.samples),
);
report('telemetry cost per turn (wall clock)', reference!, others);
const [cpuReference, ...cpuOthers] = variants.map((variant) =>
  timingOf(`${variant.label} (turn of ${CALLS_PER_TURN} calls)`, variant.cpu),
);
report('telemetry cost per turn (process CPU time)', cpuReference!, cpuOthers);
const turnsRun = RUNS + WARMUP;
console.log(
  `\n| per tool call | extra wall ms (median turns) | extra CPU ms (median turns) | CPU ms inside record/traceContextOf | aim |`,
);
console.log('|---|---:|---:|---:|---|');
for (const [index, timing] of others.entries()) {
  const variant = variants[index + 1]!;
  const inside = (inline.get(variant.telemetry!) ?? 0) / (turnsRun * CALLS_PER_TURN);
  const cpu = (cpuOthers[index]!.medianMs - cpuReference!.medianMs) / CALLS_PER_TURN;
  console.log(
    `| ${variant.label} | ${((timing.medianMs - reference!.medianMs) / CALLS_PER_TURN).toFixed(4)} | ${cpu.toFixed(4)} | ${inside.toFixed(4)} | ${index === 0 ? 'no measurable change' : '<= 0.2 ms'} |`,
  );
}
console.log(`\nspans received as JSON: ${receiver.spans().length}; export requests: ${receiver.requests.length}`);

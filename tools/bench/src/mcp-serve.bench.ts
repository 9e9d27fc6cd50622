// `clawsmith mcp serve` cost: a warm read_file through the built command over stdio (the SDK
// client, as an MCP client would call it) beside the same call through AgentCore.callTool in
// this process, on the same kind of home and workspace; then the processor time each side spends
// per call, which the machine's load inflates far less than it inflates waiting. Needs the built
// cli (nx run @clawsmith/cli:build).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openClawsmithHome } from '@clawsmith/core';
import { createServedMcpServer, type ServedSession } from '@clawsmith/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { performance } from 'node:perf_hooks';
import { report, medianOf, timingOf } from './measure.js';
import { toolCallingCore } from './tool-calling-core.js';

const bin = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run npx nx run @clawsmith/cli:build first.`);

const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-serve-ws-'));
const homes = [
  mkdtempSync(join(tmpdir(), 'clawsmith-bench-serve-')),
  mkdtempSync(join(tmpdir(), 'clawsmith-bench-serve-')),
];
writeFileSync(join(workspace, 'notes.md'), `${'clawsmith reads this line.\n'.repeat(150)}`);
const RUNS = 300;

const home = await openClawsmithHome(homes[0]);
const core = toolCallingCore(home);
const session = await core.createSession({ workspaceRoot: workspace });
const client = new Client({ name: 'bench', version: '0' });
const servedTransport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp', 'serve', '--workspace', workspace],
  env: { ...(process.env as Record<string, string>), CLAWSMITH_HOME: homes[1]! },
  stderr: 'ignore',
});
await client.connect(servedTransport);
// The protocol layer alone: the same server adapter over the same in-process core, through the
// SDK's in-memory transport (no process boundary, no JSON on a pipe). Splits the added cost
// into the MCP layer (SDK parsing on both ends, result mapping) and the process boundary.
const notServed = () => Promise.reject(new Error('not used by this benchmark'));
const inMemory = createServedMcpServer({
  workspace: {
    workspaceRoot: workspace,
    permissionMode: 'accept-edits',
    openSession: async (): Promise<ServedSession> => {
      const served = await core.createSession({ workspaceRoot: workspace });
      return {
        sessionId: served.id,
        tools: () => core.describeTools(served.id),
        call: (name, args, options) =>
          core.callTool({
            sessionId: served.id,
            name,
            arguments: args,
            signal: options.signal,
            caller: 'MCP bench',
            approvalHandler: options.approver,
            unattendedReason: options.unattendedReason,
          }),
        restorePoints: notServed,
        diff: notServed,
        undo: notServed,
        readArtifact: notServed,
        close: async () => undefined,
      };
    },
  },
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await inMemory.server.connect(serverSide);
const inMemoryClient = new Client({ name: 'bench-in-memory', version: '0' });
await inMemoryClient.connect(clientSide);
await inMemoryClient.listTools();
await client.listTools();
const callInMemory = async () => {
  const result = await inMemoryClient.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
};
const callInProcess = async () => {
  const outcome = await core.callTool({ sessionId: session.id, name: 'read_file', arguments: { path: 'notes.md' } });
  if (outcome.result.status !== 'success') throw new Error(outcome.result.content);
};
const callServed = async () => {
  const result = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
};
// On a shared machine the load drifts within seconds: the two calls alternate, so both see the
// same load, and the added cost is also given as the median of the paired differences.
const inProcessSamples: number[] = [];
const inMemorySamples: number[] = [];
const servedSamples: number[] = [];
for (let index = 0; index < 20; index += 1) {
  await callInProcess();
  await callInMemory();
  await callServed();
}
for (let index = 0; index < RUNS; index += 1) {
  let start = performance.now();
  await callInProcess();
  inProcessSamples.push(performance.now() - start);
  start = performance.now();
  await callInMemory();
  inMemorySamples.push(performance.now() - start);
  start = performance.now();
  await callServed();
  servedSamples.push(performance.now() - start);
}
const inProcess = timingOf('core.callTool read_file (in process)', inProcessSamples);
const protocolOnly = timingOf('MCP layer in process (in-memory transport)', inMemorySamples);
const served = timingOf('mcp serve over stdio: tools/call read_file', servedSamples);
report('warm read_file (alternating)', inProcess, [protocolOnly, served]);
const paired = medianOf(servedSamples.map((value, index) => value - inProcessSamples[index]!));
const pairedProtocol = medianOf(inMemorySamples.map((value, index) => value - inProcessSamples[index]!));
console.log(
  `\nadded per call by mcp serve (stdio): ${(served.medianMs - inProcess.medianMs).toFixed(3)} ms between medians, ${paired.toFixed(3)} ms median of paired differences (aim: at most 1.5 ms); load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
console.log(
  `of which the MCP layer without a process boundary (SDK parsing on both ends, result mapping): ${pairedProtocol.toFixed(3)} ms median of paired differences`,
);

// Processor time (user + system) per call, each side over a block of calls of its own, so work a
// call leaves for later (event writes after the result) is counted where it is done: this process
// for the in-process calls and for the SDK client; the served process from Linux's /proc, in clock
// ticks of 10 ms summed over the block (it is idle between calls).
const servedPid = servedTransport.pid;
const servedCpuMs = (): number | undefined => {
  try {
    const fields = readFileSync(`/proc/${servedPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
};
const cpuPerCall = async (call: () => Promise<void>) => {
  const own = process.cpuUsage();
  const served = servedCpuMs();
  for (let index = 0; index < RUNS; index += 1) await call();
  const ownUsed = process.cpuUsage(own);
  const servedEnd = servedCpuMs();
  return {
    own: (ownUsed.user + ownUsed.system) / 1000 / RUNS,
    served: served === undefined || servedEnd === undefined ? undefined : (servedEnd - served) / RUNS,
  };
};
const inProcessCpu = await cpuPerCall(callInProcess);
const inMemoryCpu = await cpuPerCall(callInMemory);
const servedCpu = await cpuPerCall(callServed);
console.log(
  `processor time per call: in process ${inProcessCpu.own.toFixed(3)} ms; through the MCP layer in process ${inMemoryCpu.own.toFixed(3)} ms (SDK client and server, in-memory transport); through mcp serve ${servedCpu.served === undefined ? '(not readable here: no /proc)' : servedCpu.served.toFixed(3)} ms in the served process + ${servedCpu.own.toFixed(3)} ms in the client (SDK, stdio); the rest of the added time is waiting (pipe wake-ups behind the machine's other work)`,
);
await inMemoryClient.close();
await client.close();
await core.close();
await home.close();
for (const folder of [...homes, workspace]) rmSync(folder, { recursive: true, force: true });

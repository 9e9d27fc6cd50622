// A command with a network allowlist (proxy and bridge) against one with the network off (start-up),
// and a download through the proxy against the same download direct (throughput); 127.0.0.1 only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runCommand, type CommandSandboxOptions } from '@clawsmith/command-sandbox';
import { medianOf, report, timingOf } from './measure.js';

const DOWNLOAD_BYTES = 256 * 1024 * 1024;
// The download server runs in its own process, as a remote server would: in this process it would
// share one event loop with the proxy and halve the proxy's figure for a reason of the bench's own.
const SERVER = `const chunk = Buffer.alloc(1 << 20, 120);
require('node:http').createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': ${DOWNLOAD_BYTES} });
  let sent = 0;
  const more = () => { while (sent < ${DOWNLOAD_BYTES}) { sent += chunk.length; if (!response.write(chunk)) return void response.once('drain', more); } response.end(); };
  more();
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = Number((await once(server.stdout, 'data'))[0].toString());
const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-network-'));

const off: CommandSandboxOptions = { capture: 'off' };
const allowlist: CommandSandboxOptions = {
  capture: 'off',
  networkAllowlist: {
    domains: ['download.test'],
    allowance: { privateAddresses: ['127.0.0.1'] },
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
  },
};
const open: CommandSandboxOptions = { capture: 'off', network: true };

/** Processor ms of this process and of every process it waited for (the sandboxes), so far. */
function processorMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + ticks * 10;
}

async function timed(options: CommandSandboxOptions, command: string): Promise<number> {
  const start = performance.now();
  const result = await runCommand(options, { workspaceRoot: workspace, command, timeoutMs: 120_000 });
  if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.output}`);
  return performance.now() - start;
}

try {
  // Start-up, interleaved call by call so the machine's load moves both alike.
  const runs = 40;
  const startOff: number[] = [];
  const startAllowlist: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    await timed(off, 'true');
    await timed(allowlist, 'true');
  }
  let cpuOff = 0;
  let cpuAllowlist = 0;
  // Each call comes after a pause, as an agent's commands come between model turns: what a call
  // leaves running in the background (the next prepared network namespace after an allowlisted
  // one) then finishes before the next call of either kind, rather than slowing whichever follows.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 150));
  for (let index = 0; index < runs; index += 1) {
    await pause();
    let before = processorMs();
    startOff.push(await timed(off, 'true'));
    cpuOff += processorMs() - before;
    await pause();
    before = processorMs();
    startAllowlist.push(await timed(allowlist, 'true'));
    cpuAllowlist += processorMs() - before;
  }
  const offTiming = timingOf('runCommand true, network off', startOff);
  const allowlistTiming = timingOf('runCommand true, network allowlist', startAllowlist);
  report('start-up: allowlist over network off', offTiming, [allowlistTiming]);
  console.log(
    `\nthe allowlist adds ${(allowlistTiming.medianMs - offTiming.medianMs).toFixed(1)} ms at the median (aim: at most 5 ms); processor time per call (an allowlisted call's includes the preparing of the namespace it took, done before it was asked for) ${(cpuOff / runs).toFixed(1)} ms off, ${(cpuAllowlist / runs).toFixed(1)} ms with the allowlist (+${((cpuAllowlist - cpuOff) / runs).toFixed(1)} ms)`,
  );

  // Throughput as curl measures its own transfer (the sandbox's start-up left out), interleaved;
  // processor time per download of this process (the proxy) and the sandbox's processes (curl,
  // the bridge), the server's own not counted (it is the same for both).
  const downloads = 7;
  const speeds = { direct: [] as number[], plain: [] as number[], tunnel: [] as number[] };
  const processor = { direct: 0, plain: 0, tunnel: 0 };
  const download = async (kind: keyof typeof speeds, options: CommandSandboxOptions, command: string) => {
    const before = processorMs();
    const result = await runCommand(options, { workspaceRoot: workspace, command, timeoutMs: 120_000 });
    processor[kind] += processorMs() - before;
    if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.output}`);
    // Seconds per MiB, so the median of the samples works like a time.
    speeds[kind].push((1000 * 1024 * 1024) / Number(result.output.trim()));
  };
  const curl = (url: string, extra = '') => `curl -sS -o /dev/null -w '%{speed_download}' ${extra} ${url}`;
  for (let index = 0; index < downloads; index += 1) {
    await download('direct', open, curl(`http://127.0.0.1:${port}/`));
    await download('plain', allowlist, curl(`http://download.test:${port}/`));
    await download('tunnel', allowlist, curl(`http://download.test:${port}/`, '--proxytunnel'));
  }
  const mebibytes = DOWNLOAD_BYTES / 1024 / 1024;
  report(
    `download of ${mebibytes} MiB in the sandbox: ms per MiB (curl's own transfer time)`,
    timingOf('direct (network on)', speeds.direct),
    [timingOf('through the proxy, plain HTTP', speeds.plain), timingOf('through the proxy, CONNECT', speeds.tunnel)],
  );
  const rate = (samples: number[]) => 1000 / medianOf(samples);
  // The spread: each round's proxy speed over the direct speed of the same round (interleaved).
  const spread = (samples: number[]) => {
    const ratios = samples.map((sample, index) => speeds.direct[index]! / sample).sort((left, right) => left - right);
    return `${ratios[0]!.toFixed(2)}x-${ratios.at(-1)!.toFixed(2)}x`;
  };
  const perMebibyte = (total: number) => (total / downloads / mebibytes).toFixed(2);
  console.log(
    `\nthroughput: direct ${rate(speeds.direct).toFixed(0)} MiB/s, proxy plain ${rate(speeds.plain).toFixed(0)} MiB/s (${(rate(speeds.plain) / rate(speeds.direct)).toFixed(2)}x), proxy CONNECT ${rate(speeds.tunnel).toFixed(0)} MiB/s (${(rate(speeds.tunnel) / rate(speeds.direct)).toFixed(2)}x) (aim: at least 0.8x); round by round plain ${spread(speeds.plain)}, CONNECT ${spread(speeds.tunnel)}; processor ms per MiB (the relay's own not counted: it is no child this process waits for): direct ${perMebibyte(processor.direct)}, plain ${perMebibyte(processor.plain)}, CONNECT ${perMebibyte(processor.tunnel)}`,
  );
} finally {
  server.kill();
  rmSync(workspace, { recursive: true, force: true });
}

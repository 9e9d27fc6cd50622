// Test support: starts an allowlist's network proxy (and its relay) in a process of its own and
// prints the folder bound into sandboxes; the line `die` kills this process without stopping it.
import { createInterface } from 'node:readline';
import { NETWORK_SYSTEM_CALLS } from '../network/network-bridge.js';
import { startNetworkProxy } from '../network/network-proxy.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';

const perl = resolveTrustedLauncher('perl');
const systemCalls = NETWORK_SYSTEM_CALLS[process.arch];
if (!perl.found || !systemCalls) throw new Error('the network relay needs Perl and an x64 or arm64 machine');
const proxy = await startNetworkProxy({ domains: ['allowed.test'] }, { perl: perl.program, systemCalls });
process.stdout.write(`${proxy.sandboxFolder}\n`);
for await (const line of createInterface({ input: process.stdin }))
  if (line === 'die') process.kill(process.pid, 'SIGKILL');

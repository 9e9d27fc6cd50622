// Test support: runs one captured command (`echo x > made.txt`) in the workspace given, with its
// capture folders under the folder given, prints the retired folders it left, and is killed by
// SIGKILL at once: its background removal never runs, as after a crash.
import { readdirSync } from 'node:fs';
import { runCommand } from '../index.js';

const [workspaceRoot, captureFolder] = process.argv.slice(2);
await runCommand({ captureFolder: captureFolder! }, { workspaceRoot: workspaceRoot!, command: 'echo x > made.txt' });
process.stdout.write(`${JSON.stringify(readdirSync(captureFolder!))}\n`);
process.kill(process.pid, 'SIGKILL');

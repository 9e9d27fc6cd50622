// Test support: runs background commands in a process of its own, so a test can see two processes'
// sandboxes share one workspace. Prints READY; then `start <workspace> <command…>` starts a command
// (prints STARTED) and `end` ends them all (prints ENDED <count>).
import { createInterface } from 'node:readline';
import { createCommandExecutionService } from '../index.js';

const commands = createCommandExecutionService();
process.stdout.write('READY\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [verb, workspaceRoot, ...command] = line.split(' ');
  if (verb === 'start') {
    await commands.start({ sessionId: 'other', workspaceRoot: workspaceRoot!, command: command.join(' ') });
    process.stdout.write('STARTED\n');
  } else if (verb === 'end') {
    process.stdout.write(`ENDED ${await commands.endSession('other')}\n`);
  }
}

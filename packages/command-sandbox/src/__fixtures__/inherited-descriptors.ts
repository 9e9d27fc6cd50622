// Runs one command in pipe mode and one on a terminal, as a clawsmith process that inherited
// descriptors 20, 100 and 250 would; prints both outputs as one JSON line.
// Usage: inherited-descriptors.ts <workspace> <command>
import { createCommandExecutionService, runCommand } from '../index.js';

const [workspace, command] = process.argv.slice(2) as [string, string];
const piped = await runCommand({}, { workspaceRoot: workspace, command });
const service = createCommandExecutionService({});
const started = await service.start({ sessionId: 's', workspaceRoot: workspace, command, pty: true });
for (let waited = 0; waited < 200 && service.status('s', started.id).state === 'running'; waited += 1)
  await new Promise((resolve) => setTimeout(resolve, 50));
const terminal = service.output('s', started.id, 0, 1_000_000).bytes.toString('utf8');
await service.close();
process.stdout.write(`${JSON.stringify({ piped: piped.output, pipedSandbox: piped.sandbox, terminal })}\n`);

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAiAgentsTools } from '@clawsmith/adapter-openai-agents';
import { openToolHost } from '@clawsmith/tool-host';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';

setTracingDisabled(true); // the SDK would send traces to the vendor; this example talks to your server only
// Any Chat Completions server; the tests start one on 127.0.0.1 that plays fix-a-test.model.json.
const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to a Chat Completions server (and OPENAI_MODEL, OPENAI_API_KEY).');
const client = new OpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY ?? 'local' });
const model = new OpenAIChatCompletionsModel(client, process.env.OPENAI_MODEL ?? 'local-model');
const scratch = mkdtempSync(join(tmpdir(), 'adapter-openai-agents-example-'));
const workspaceRoot = join(scratch, 'workspace');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'math.mjs'), 'export const add = (a, b) => a - b;\n');
writeFileSync(
  join(workspaceRoot, 'check.mjs'),
  "import { add } from './math.mjs';\nconsole.log('add(2, 3) =', add(2, 3));\n",
);
const askPerson = (toolName: string, reason: string) => (console.log('approve?', toolName, '-', reason), true);

// --- the glue: clawsmith's tools for an Agent, interruptions answered by a person, then undo ---
const host = await openToolHost({ home: join(scratch, 'home'), workspaceRoot, permissionMode: 'accept-edits' });
const clawsmith = openAiAgentsTools(host); // keep this one set for the run: approvals belong to it
const agent = new Agent({ name: 'fixer', instructions: 'Fix the code.', tools: clawsmith.tools, model });
let result = await run(agent, 'Fix add() in math.mjs.');
while (result.interruptions.length > 0) {
  await clawsmith.answer(result, (pending) => askPerson(pending.toolName, pending.reason));
  result = await run(agent, result.state);
}
console.log(result.finalOutput, readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a + b;
await host.undo((await host.listRestorePoints())[0]!.turnId); // every change of the run, undone
// --- end of the glue ---

console.log(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a - b;
await host.close();
rmSync(scratch, { recursive: true, force: true });

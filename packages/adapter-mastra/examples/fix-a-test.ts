import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { mastraTools } from '@clawsmith/adapter-mastra';
import { openToolHost } from '@clawsmith/tool-host';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';

// Any Chat Completions server; the tests start one on 127.0.0.1 that plays fix-a-test.model.json.
const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to a Chat Completions server (and OPENAI_MODEL, OPENAI_API_KEY).');
const provider = createOpenAICompatible({ name: 'local', baseURL, apiKey: process.env.OPENAI_API_KEY ?? 'local' });
const model = provider.chatModel(process.env.OPENAI_MODEL ?? 'local-model');
const scratch = mkdtempSync(join(tmpdir(), 'adapter-mastra-example-'));
const workspaceRoot = join(scratch, 'workspace');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'math.mjs'), 'export const add = (a, b) => a - b;\n');
writeFileSync(
  join(workspaceRoot, 'check.mjs'),
  "import { add } from './math.mjs';\nconsole.log('add(2, 3) =', add(2, 3));\n",
);
const askPerson = (toolName: string, reason: string) => (console.log('approve?', toolName, '-', reason), true);

// --- the glue: clawsmith's tools for a Mastra Agent, suspended calls answered by a person, then undo ---
const host = await openToolHost({ home: join(scratch, 'home'), workspaceRoot, permissionMode: 'accept-edits' });
const clawsmith = mastraTools(host);
const agent = new Agent({ name: 'fixer', instructions: 'Fix the code.', model, tools: clawsmith.tools });
new Mastra({ agents: { fixer: agent }, storage: new InMemoryStore(), logger: false }); // suspensions need storage
let stream = await agent.stream('Fix add() in math.mjs.', { maxSteps: 20 });
for (;;) {
  let answer: { toolCallId: string; approved: boolean } | undefined;
  for await (const chunk of stream.fullStream) {
    const asks = chunk.type === 'tool-call-suspended' ? clawsmith.pending(chunk.payload) : undefined;
    if (asks) answer = { toolCallId: asks.toolCallId, approved: askPerson(asks.toolName, asks.reason) };
  }
  if (!answer) break;
  stream = await agent.resumeStream(answer, { runId: stream.runId, toolCallId: answer.toolCallId, maxSteps: 20 });
}
console.log(await stream.text, readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a + b;
await host.undo((await host.listRestorePoints())[0]!.turnId); // every change of the run, undone
// --- end of the glue ---

console.log(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a - b;
await host.close();
rmSync(scratch, { recursive: true, force: true });

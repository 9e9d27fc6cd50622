import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aiSdkTools } from '@clawsmith/adapter-ai-sdk';
import { openToolHost } from '@clawsmith/tool-host';
import { stepCountIs, streamText, type ModelMessage } from 'ai';

// Any Chat Completions server; the tests start one on 127.0.0.1 that plays fix-a-test.model.json.
const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to a Chat Completions server (and OPENAI_MODEL, OPENAI_API_KEY).');
const provider = createOpenAICompatible({ name: 'local', baseURL, apiKey: process.env.OPENAI_API_KEY ?? 'local' });
const model = provider.chatModel(process.env.OPENAI_MODEL ?? 'local-model');
const scratch = mkdtempSync(join(tmpdir(), 'adapter-ai-sdk-example-'));
const workspaceRoot = join(scratch, 'workspace');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'math.mjs'), 'export const add = (a, b) => a - b;\n');
writeFileSync(
  join(workspaceRoot, 'check.mjs'),
  "import { add } from './math.mjs';\nconsole.log('add(2, 3) =', add(2, 3));\n",
);
const askPerson = (call: { toolName: string; input: unknown }) => (console.log('approve?', call.toolName), true);

// --- the glue: clawsmith's tools in an AI SDK loop, with the person's approvals, then undo ---
const host = await openToolHost({ home: join(scratch, 'home'), workspaceRoot, permissionMode: 'accept-edits' });
const tools = aiSdkTools(host); // keep this one set for the conversation: approvals belong to it
const messages: ModelMessage[] = [{ role: 'user', content: 'Fix add() in math.mjs.' }];
for (;;) {
  const result = streamText({ model, tools, messages, stopWhen: stepCountIs(20) });
  messages.push(...(await result.response).messages);
  const asks = (await result.content).filter((part) => part.type === 'tool-approval-request');
  if (asks.length === 0) break;
  const answers = asks.map((ask) => ({ approvalId: ask.approvalId, approved: askPerson(ask.toolCall) }));
  messages.push({ role: 'tool', content: answers.map((answer) => ({ type: 'tool-approval-response', ...answer })) });
}
console.log(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a + b;
await host.undo((await host.listRestorePoints())[0]!.turnId); // every change of the run, undone
// --- end of the glue ---

console.log(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a - b;
const toolResults = messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
console.log('the model read:', JSON.stringify(toolResults.at(-1)));
await host.close();
rmSync(scratch, { recursive: true, force: true });

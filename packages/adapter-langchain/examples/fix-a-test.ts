import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { langChainTools } from '@clawsmith/adapter-langchain';
import { openToolHost } from '@clawsmith/tool-host';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';

// Any Chat Completions server; the tests start one on 127.0.0.1 that plays fix-a-test.model.json.
const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to a Chat Completions server (and OPENAI_MODEL, OPENAI_API_KEY).');
const llm = new ChatOpenAI({
  model: process.env.OPENAI_MODEL ?? 'local-model',
  apiKey: process.env.OPENAI_API_KEY ?? 'local',
  configuration: { baseURL },
});
const scratch = mkdtempSync(join(tmpdir(), 'adapter-langchain-example-'));
const workspaceRoot = join(scratch, 'workspace');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'math.mjs'), 'export const add = (a, b) => a - b;\n');
writeFileSync(
  join(workspaceRoot, 'check.mjs'),
  "import { add } from './math.mjs';\nconsole.log('add(2, 3) =', add(2, 3));\n",
);
const askPerson = (toolName: string, reason: string) => (console.log('approve?', toolName, '-', reason), true);

// --- the glue: clawsmith's tools in a LangGraph agent, interrupts answered by a person, then undo ---
const host = await openToolHost({ home: join(scratch, 'home'), workspaceRoot, permissionMode: 'accept-edits' });
const clawsmith = langChainTools(host); // keep this one set for the thread: approvals belong to it
const agent = createReactAgent({ llm, tools: clawsmith.tools, checkpointer: new MemorySaver(), version: 'v2' });
const thread = { configurable: { thread_id: 'fix-add' } };
let state = await agent.invoke({ messages: [{ role: 'user', content: 'Fix add() in math.mjs.' }] }, thread);
while (clawsmith.pending(state).length > 0) {
  const answers = await clawsmith.answer(state, (pending) => askPerson(pending.toolName, pending.reason));
  state = await agent.invoke(answers, thread);
}
console.log(state.messages.at(-1)?.content, readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // a + b
await host.undo((await host.listRestorePoints())[0]!.turnId); // every change of the run, undone
// --- end of the glue ---

console.log(readFileSync(join(workspaceRoot, 'math.mjs'), 'utf8').trim()); // ... a - b;
console.log('the model read:', state.messages.filter((message) => message.getType() === 'tool').at(-1)?.content);
await host.close();
rmSync(scratch, { recursive: true, force: true });

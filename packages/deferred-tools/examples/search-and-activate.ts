import { tmpdir } from 'node:os';
import { z } from 'zod';
import { defineTool } from '@clawsmith/tool-protocol';
import {
  checkToolCall,
  composeRequestTools,
  createDeferredToolCatalog,
  createSearchToolsTool,
  SessionActivation,
} from '@clawsmith/deferred-tools';

const createIssue = defineTool({
  name: 'github_create_issue',
  description: 'Create a GitHub issue.',
  risk: 'execute',
  capabilities: ['network'],
  concurrencySafe: false,
  inputSchema: z.object({ title: z.string() }),
  summarize: (input) => input.title,
  execute: async (input) => `created ${input.title}`,
  deferred: true, // kept out of model requests until search_tools activates it
});
const catalog = createDeferredToolCatalog([createIssue]);
const activation = new SessionActivation();
activation.onChange((change) => console.log('persist', change.state)); // core stores this with the session
const searchTools = createSearchToolsTool({ catalog, activationFor: () => activation });
const table = [createIssue, searchTools];

console.log(checkToolCall(catalog, 'github_create_issue', activation)?.code); // inactive_tool
const context = {
  authorized: true,
  workspaceRoot: tmpdir(), // search_tools touches no file
  sessionId: 's1',
  turnId: 't1',
  toolCallId: 'c1',
  signal: new AbortController().signal,
};
console.log((await searchTools.execute({ query: 'create issue' }, context)).content); // Activated 1 tool(s): github_create_issue. ...
console.log(composeRequestTools(table, activation, catalog).evidence.toolNames); // [ 'search_tools', 'github_create_issue' ]

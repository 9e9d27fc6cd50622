// Everything exported here is the public API of @clawsmith/adapter-openai-agents; the surface is
// pinned by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ApprovalState, OpenAiAgentsTools, PendingApproval } from './openai-agents-tools.js';
export { openAiAgentsTools } from './openai-agents-tools.js';

// Everything exported here is the public API of @clawsmith/adapter-langchain; the surface is
// pinned by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ApprovalAnswer, ApprovalRequest } from './approval-request.js';
export { APPROVAL_KIND, isApprovalRequest } from './approval-request.js';
export type { LangChainTools, LangChainToolsOptions, PendingApproval } from './langchain-tools.js';
export { langChainTools } from './langchain-tools.js';

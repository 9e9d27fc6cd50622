// Everything exported here is the public API of @clawsmith/adapter-mastra; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ApprovalAnswer, ApprovalRequest } from './approval-request.js';
export { APPROVAL_KIND, isApprovalRequest } from './approval-request.js';
export type { MastraTools, MastraToolsOptions } from './mastra-tools.js';
export { mastraTools } from './mastra-tools.js';

// Everything exported here is the public API of @clawsmith/adapter-mastra; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type {
  FrameworkApprovalAnswer as ApprovalAnswer,
  FrameworkApprovalRequest as ApprovalRequest,
} from '@clawsmith/tool-host';
export {
  FRAMEWORK_APPROVAL_KIND as APPROVAL_KIND,
  isFrameworkApprovalRequest as isApprovalRequest,
} from '@clawsmith/tool-host';
export type { MastraTools, MastraToolsOptions } from './mastra-tools.js';
export { mastraTools } from './mastra-tools.js';

// Everything exported here is the public API of @clawsmith/tool-host; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { ToolHost } from './host/tool-host.js';
export { createToolHost } from './host/tool-host.js';
export type { OpenToolHostOptions, OpenedToolHost } from './host/open-tool-host.js';
export { openToolHost } from './host/open-tool-host.js';
export { HOME_BUSY_TIMEOUT_MS } from './host/home-busy-timeout.js';
export { resolveDatabaseUrl } from './host/database-url.js';
export type { FrameworkApprovalAnswer, FrameworkApprovalRequest } from './host/framework-approval.js';
export { FRAMEWORK_APPROVAL_KIND, approvesCall, isFrameworkApprovalRequest } from './host/framework-approval.js';
export type {
  HostCallOptions,
  HostDecideOptions,
  HostDecision,
  HostToolDescription,
  ToolHostOptions,
} from './host/tool-host-types.js';

export type { ParsedArguments } from './calls/call-arguments.js';
export { parseCallArguments, safeSummary } from './calls/call-arguments.js';
export type { CallJudgment, CallToJudge, JudgeSettings, StageDecision } from './calls/judge-call.js';
export { judgeCall } from './calls/judge-call.js';
export type { JudgedCallRun } from './calls/execute-judged-call.js';
export { executeJudgedCall } from './calls/execute-judged-call.js';
export type { InlineBound } from './calls/large-output.js';
export { DEFAULT_INLINE_CONTENT_LIMIT, keepInlineBounded } from './calls/large-output.js';
export { resultText } from './calls/result-text.js';
export { runAuthorized } from './calls/run-authorized.js';
export type { ToolEntry, ToolSource, ToolTable } from './calls/tool-table.js';
export { DuplicateToolError, buildToolTable } from './calls/tool-table.js';

export type { ApprovalAnswer, ApprovalHandler, ApprovalRequest } from './permissions/approval-handler.js';
export type { CallCommand, CallFacts, CallUrl } from './permissions/call-facts.js';
export { resolveCallFacts } from './permissions/call-facts.js';
export type {
  CallTouches,
  HookAmendments,
  HookVerdict,
  ToolHook,
  ToolHookAmendment,
  ToolHookDecision,
  ToolHookInput,
  ToolResultHook,
  ToolResultHookInput,
} from './permissions/hooks.js';
export { hookInput, runHooks, runResultHooks } from './permissions/hooks.js';
export type {
  PermissionAction,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
  PermissionRule,
} from './permissions/permission-policy.js';
export { PERMISSION_MODES, decidePermission, excludedPaths } from './permissions/permission-policy.js';
export type { RequestPath } from './permissions/request-paths.js';
export { DEFAULT_PATH_ARGUMENTS, requestPaths } from './permissions/request-paths.js';
export { SECRET_FILE_GLOBS } from './permissions/secret-files.js';

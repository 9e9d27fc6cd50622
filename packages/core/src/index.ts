// Everything exported here is the public API of @clawsmith/core.

export type { AgentCore } from './agent-core.js';
export { createAgentCore } from './agent-core.js';
export type {
  AgentCoreOptions,
  RestoreScope,
  RunTurnOptions,
  TurnResult,
  TurnSettings,
  TurnStatus,
} from './agent-core-options.js';
export type { DirectToolCall, DirectToolCallResult, ToolDescription } from './direct-calls.js';
export type { BuiltinToolsOptions } from './builtin-tools.js';
export { createBuiltinTools } from './builtin-tools.js';
export type { ClawsmithHome } from './clawsmith-home.js';
export { openClawsmithHome, resolveClawsmithHome } from './clawsmith-home.js';
export { resolveDatabaseUrl } from '@clawsmith/tool-host';

export type { ApprovalAnswer, ApprovalHandler, ApprovalRequest } from '@clawsmith/tool-host';
export { ApprovalBroker } from './permissions/approval-broker.js';
export type { ToolEntry, ToolSource, ToolTable } from '@clawsmith/tool-host';
export { DuplicateToolError, buildToolTable } from '@clawsmith/tool-host';
export { isParallelBatch } from './lifecycle/run-tool-calls.js';

export type {
  HookAmendments,
  HookVerdict,
  ToolHook,
  ToolHookAmendment,
  ToolHookDecision,
  ToolHookInput,
  ToolResultHook,
  ToolResultHookInput,
} from '@clawsmith/tool-host';
export type {
  PermissionAction,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
  PermissionRule,
} from '@clawsmith/tool-host';
export { PERMISSION_MODES, decidePermission } from '@clawsmith/tool-host';
export { SECRET_FILE_GLOBS } from '@clawsmith/tool-host';

export type { RestoreResult } from './restore.js';
export type { UndoConflict } from '@clawsmith/checkpoints';
export { undoConflictsOf } from '@clawsmith/checkpoints';
export type { ChildDescription, DelegationOptions } from './subagents/delegation-options.js';
export { DELEGATION_LIMITS } from './subagents/delegation-options.js';
export type { ChildResult } from './subagents/child-runner.js';
export type { DelegationKind, DelegationRecord, DelegationStatus } from './subagents/delegation-store.js';
export type { HomeRetentionPolicy, RetentionReport } from './retention/home-retention.js';
export { retentionSummary, runRetention } from './retention/home-retention.js';
export type { RetentionScheduleOptions } from './retention/retention-schedule.js';
export type { SessionDeletion } from './session-deletion.js';
export { renderTodos } from './session-tools/todo-tools.js';

export type {
  NewSessionEvent,
  PendingApproval,
  SessionEvent,
  SessionEventType,
  SessionRecord,
  TodoItem,
  TurnRecord,
  UndoneTurnRecord,
} from './store/session-records.js';
export type { SessionReader } from './store/session-reader.js';
export type { SessionEventListener } from './store/session-store.js';
export type { SessionChangeFeed, SessionChangeListener } from './store/session-change-feed.js';
export { SESSION_CHANGE_CHANNEL } from './store/session-change-notice.js';
export { coreMigrations, migrateCore } from './store/core-migrations.js';
export { openClawsmithDatabase } from './store/open-database.js';

export type { EffectiveSettings, SettingsEntry, SettingsInputs } from './settings/effective-settings.js';
export {
  effectiveSettings,
  projectSettingsFiles,
  readSettingsFile,
  trustProjectSettings,
} from './settings/effective-settings.js';
export { SettingsError } from './settings/settings-error.js';
export type { SettingsFile } from './settings/settings-schema.js';
export { SETTINGS_HOOK_EVENTS, settingsFileSchema } from './settings/settings-schema.js';
export type { ToolAlias } from './settings/tool-aliases.js';
export { TOOL_ALIASES } from './settings/tool-aliases.js';
export { parseSettingsRule } from './settings/settings-rules.js';
export type {
  CompactionVerdict,
  PromptVerdict,
  SessionHookInput,
  SessionStartVerdict,
  SideEffectVerdict,
  StopVerdict,
  TurnHookInput,
  TurnHooks,
} from './turn-hooks.js';

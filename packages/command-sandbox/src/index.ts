// Everything exported here is the public API of @clawsmith/command-sandbox; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { CommandSafetyOptions, CommandSafetyVerdict } from './command-safety.js';
export { evaluateCommandSafety } from './command-safety.js';
export type { FoundSimpleCommand } from './simple-command.js';
export { commandStartsWith, simpleCommandWords, simpleCommandsIn } from './simple-command.js';
export type { CommandSafetyRule } from './command-rules.js';
export { COMMAND_SAFETY_RULES } from './command-rules.js';

export type { CommandEnvironmentOptions } from './command-environment.js';
export {
  DEFAULT_ENVIRONMENT_ALLOWLIST,
  buildCommandEnvironment,
  isForbiddenEnvironmentName,
} from './command-environment.js';

export type {
  PathKind,
  SandboxLimits,
  SandboxMount,
  SandboxNamespaces,
  SandboxPlan,
  SandboxPlanInput,
} from './sandbox-plan.js';
export {
  PROTECTED_SANDBOX_PATHS,
  DEFAULT_SANDBOX_LIMITS,
  buildSandboxPlan,
  limitedCommandArguments,
} from './sandbox-plan.js';
export { UNIX_SOCKET_FILTER_DESCRIPTOR, bubblewrapArguments } from './bubblewrap-arguments.js';
export { unixSocketFilterProgram } from './unix-socket-filter.js';
export { macosSandboxProfile } from './macos-sandbox-profile.js';
export type { SandboxAvailability, SandboxKind, SandboxMode } from './sandbox-availability.js';
export { sandboxAvailability } from './sandbox-availability.js';

export type { CommandSandboxOptions, PreparedCommand } from './command-launch.js';
export type { CommandNetworkAllowlist, ProxyHostResolver, RefusedHost } from './network/network-allowlist.js';
export { prepareCommand } from './command-launch.js';
export type { CommandRunRequest, CommandRunResult } from './run-command-tool.js';
export type { CaptureMode, CommandFileChanges } from './capture/command-capture.js';
export type {
  AppliedChanges,
  AppliedKind,
  AppliedPath,
  ApplyCapturedChangesOptions,
  CaptureConflict,
} from './capture/apply-captured-changes.js';
export { applyCapturedChanges } from './capture/apply-captured-changes.js';
export type { CapturedChange, UnsupportedEntry } from './capture/upper-folder-changes.js';
export { upperFolderChanges } from './capture/upper-folder-changes.js';
export { settleCaptureFolders } from './capture/capture-folder.js';
export { COMMAND_DEFAULTS, createRunCommandTool, runCommand } from './run-command-tool.js';

export {
  COMMAND_SANDBOX_ERROR_CODES,
  CommandRefusedError,
  CommandSandboxError,
  SandboxUnavailableError,
} from './errors.js';

export type { CommandExecutionService, CommandExecutionServiceOptions } from './command-execution-service.js';
export type {
  CommandOutputRead,
  CommandSnapshot,
  CommandState,
  StartCommandRequest,
  TerminalCapabilities,
} from './command-record.js';
export { createCommandExecutionService } from './command-execution-service.js';
export type { CommandOutputSlice } from './command-log.js';
export type { BackgroundCommandToolsOptions } from './background-command-tools.js';
export { createBackgroundCommandTools } from './background-command-tools.js';

export type { WorkspaceWallOptions } from './workspace-wall.js';
export { createWorkspaceWall } from './workspace-wall.js';
export type { TrustedLauncher } from './trusted-launcher.js';
export { TRUSTED_LAUNCHER_FOLDERS, resolveTrustedLauncher } from './trusted-launcher.js';

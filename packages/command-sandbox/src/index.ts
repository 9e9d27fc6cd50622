// Everything exported here is the public API of @clawsmith/command-sandbox; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { CommandSafetyOptions, CommandSafetyVerdict } from './refusal/command-safety.js';
export { evaluateCommandSafety } from './refusal/command-safety.js';
export type { FoundSimpleCommand } from './shell/simple-command.js';
export { commandStartsWith, simpleCommandWords, simpleCommandsIn } from './shell/simple-command.js';
export type { CommandSafetyRule } from './refusal/command-rules.js';
export { COMMAND_SAFETY_RULES } from './refusal/command-rules.js';

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
} from './sandbox/sandbox-plan.js';
export {
  PROTECTED_SANDBOX_PATHS,
  DEFAULT_SANDBOX_LIMITS,
  buildSandboxPlan,
  limitedCommandArguments,
} from './sandbox/sandbox-plan.js';
export { UNIX_SOCKET_FILTER_DESCRIPTOR, bubblewrapArguments } from './sandbox/bubblewrap-arguments.js';
export { unixSocketFilterProgram } from './sandbox/unix-socket-filter.js';
export { macosSandboxProfile } from './sandbox/macos-sandbox-profile.js';
export type { SandboxAvailability, SandboxKind, SandboxMode } from './sandbox/sandbox-availability.js';
export { sandboxAvailability } from './sandbox/sandbox-availability.js';

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

export type {
  CommandExecutionService,
  CommandExecutionServiceOptions,
} from './background/command-execution-service.js';
export type {
  CommandOutputRead,
  CommandSnapshot,
  CommandState,
  StartCommandRequest,
  TerminalCapabilities,
} from './background/command-record.js';
export { createCommandExecutionService } from './background/command-execution-service.js';
export type { CommandOutputSlice } from './background/command-log.js';
export type { BackgroundCommandToolsOptions } from './background/background-command-tools.js';
export { createBackgroundCommandTools } from './background/background-command-tools.js';

export type { WorkspaceWallOptions } from './wall/workspace-wall.js';
export { createWorkspaceWall } from './wall/workspace-wall.js';
export type { TrustedLauncher } from './process/trusted-launcher.js';
export { TRUSTED_LAUNCHER_FOLDERS, resolveTrustedLauncher } from './process/trusted-launcher.js';

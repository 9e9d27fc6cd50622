import { describe, expect, it } from 'vitest';
import * as api from './index.js';

// Literals, never imported from src: a red pin means a deliberate change with a changeset.
describe('@clawsmith/command-sandbox public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'COMMAND_DEFAULTS',
      'COMMAND_SAFETY_RULES',
      'COMMAND_SANDBOX_ERROR_CODES',
      'CommandRefusedError',
      'CommandSandboxError',
      'DEFAULT_ENVIRONMENT_ALLOWLIST',
      'DEFAULT_SANDBOX_LIMITS',
      'PROTECTED_SANDBOX_PATHS',
      'SandboxUnavailableError',
      'TRUSTED_LAUNCHER_FOLDERS',
      'UNIX_SOCKET_FILTER_DESCRIPTOR',
      'applyCapturedChanges',
      'bubblewrapArguments',
      'buildCommandEnvironment',
      'buildSandboxPlan',
      'commandStartsWith',
      'createBackgroundCommandTools',
      'createCommandExecutionService',
      'createRunCommandTool',
      'createWorkspaceWall',
      'evaluateCommandSafety',
      'isForbiddenEnvironmentName',
      'limitedCommandArguments',
      'macosSandboxProfile',
      'prepareCommand',
      'resolveTrustedLauncher',
      'runCommand',
      'sandboxAvailability',
      'settleCaptureFolders',
      'simpleCommandWords',
      'simpleCommandsIn',
      'unixSocketFilterProgram',
      'upperFolderChanges',
    ]);
  });

  it('pins the error codes, the rules and the defaults', () => {
    expect(Object.values(api.COMMAND_SANDBOX_ERROR_CODES).sort()).toEqual([
      'command_failed',
      'command_limit_reached',
      'command_not_found',
      'command_not_running',
      'command_refused',
      'command_spawn_failed',
      'command_timeout',
      'environment_name_forbidden',
      'not_a_terminal',
      'protected_path_symlink',
      'resource_limit_reached',
      'sandbox_unavailable',
      'service_closed',
      'takeover_required',
      'working_directory_not_found',
      'working_directory_outside_workspace',
      'workspace_unavailable',
    ]);
    expect(api.COMMAND_SAFETY_RULES).toEqual([
      'privilege_escalation',
      'disk_format',
      'block_device_write',
      'recursive_delete_root',
      'recursive_permission_root',
      'power_state',
      'kill_init',
      'sysrq_trigger',
      'fork_bomb',
      'unresolved_command',
      'unparseable_command',
      'nesting_too_deep',
    ]);
    expect(api.COMMAND_DEFAULTS).toEqual({
      timeoutMs: 120_000,
      maxTimeoutMs: 600_000,
      outputLimitBytes: 65_536,
      logLimitBytes: 8_388_608,
    });
    expect(api.DEFAULT_SANDBOX_LIMITS).toEqual({
      cpuSeconds: 300,
      fileSizeBytes: 1_073_741_824,
      openFiles: 1024,
      processes: 1024,
      memoryBytes: 4_294_967_296,
      temporaryBytes: 536_870_912,
      commandMemoryBytes: 2_147_483_648,
    });
  });
});

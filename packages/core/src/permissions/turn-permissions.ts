import type { ApprovalHandler } from '@clawsmith/tool-host';
import type { ToolHook, ToolResultHook } from '@clawsmith/tool-host';
import type { PermissionMode, PermissionRule } from '@clawsmith/tool-host';

/** The permission settings of one core: what every session's calls are judged by. */
export interface PermissionSettings {
  readonly mode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly hooks: readonly ToolHook[];
  /** Hooks that run after each call completed; their feedback reaches the model. */
  readonly resultHooks?: readonly ToolResultHook[];
  /** Asks a person when the policy or a hook says `ask`; without one, an `ask` is denied. */
  readonly approvalHandler?: ApprovalHandler;
}

/** The permission settings as one turn applies them, with what a person allowed in its session. */
export interface TurnPermissions extends PermissionSettings {
  /** Why an `ask` is denied when there is no approval handler (default: a non-interactive run). */
  readonly unattendedReason?: string;
  /** Tools a person allowed for the rest of this session (`allow-session`); the turn adds to it. */
  readonly sessionAllowances: Set<string>;
}

/** Who is asked in one turn, when it is not the core's approval handler. */
export interface ApprovalOverride {
  /** Asks a person for this turn instead of the core's handler; `null`: nobody can be asked. */
  readonly approvalHandler?: ApprovalHandler | null;
  /** Why an `ask` is denied when nobody can be asked (the end of the denial message). */
  readonly unattendedReason?: string;
  /** This turn's permission mode instead of the core's (an editor session's chosen mode). */
  readonly permissionMode?: PermissionMode;
}

/** The core's settings for one turn: its handler (or the override's), and the session's allowances. */
export function turnPermissions(
  settings: PermissionSettings,
  sessionAllowances: Set<string>,
  override: ApprovalOverride = {},
): TurnPermissions {
  const approvalHandler =
    override.approvalHandler === null ? undefined : (override.approvalHandler ?? settings.approvalHandler);
  return {
    mode: override.permissionMode ?? settings.mode,
    rules: settings.rules,
    hooks: settings.hooks,
    ...(settings.resultHooks ? { resultHooks: settings.resultHooks } : {}),
    ...(approvalHandler ? { approvalHandler } : {}),
    ...(override.unattendedReason ? { unattendedReason: override.unattendedReason } : {}),
    sessionAllowances,
  };
}

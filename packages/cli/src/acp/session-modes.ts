import type { PermissionMode } from '@clawsmith/core';
import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';

/** Our permission modes as ACP session modes (the ids are the `--permission-mode` values). */
export const ACP_SESSION_MODES: readonly (SessionMode & { readonly id: PermissionMode })[] = [
  { id: 'default', name: 'Ask', description: 'Reads run; edits and commands ask first' },
  { id: 'accept-edits', name: 'Accept edits', description: 'Reads and workspace edits run; commands ask first' },
  { id: 'read-only', name: 'Read only', description: 'Reads run; edits and commands are refused' },
  {
    id: 'full-auto',
    name: 'Full auto',
    description: 'Everything runs without asking (the sandbox, protected paths and undo still apply)',
  },
];

/** The mode state of a session in `mode`. */
export function modeState(mode: PermissionMode): SessionModeState {
  return {
    currentModeId: mode,
    availableModes: ACP_SESSION_MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}

/** The permission mode an ACP mode id names, or undefined. */
export function permissionModeOf(modeId: string): PermissionMode | undefined {
  return ACP_SESSION_MODES.find((mode) => mode.id === modeId)?.id;
}

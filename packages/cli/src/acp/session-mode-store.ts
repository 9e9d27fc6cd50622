import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionMode } from '@clawsmith/core';
import { permissionModeOf } from './session-modes.js';

/** Session ids are UUIDs; anything else is never turned into a file name. */
const SESSION_ID = /^[A-Za-z0-9-]{1,100}$/;

/**
 * The mode an editor chose for each session, kept in the home (`acp-modes/<session id>`, one
 * small file per session so two `clawsmith acp` processes never rewrite each other's choices),
 * so a session loaded later, in another process, opens in the mode it was left in.
 */
export class SessionModeStore {
  readonly #folder: string;

  constructor(homeFolder: string) {
    this.#folder = join(homeFolder, 'acp-modes');
  }

  /** The mode last chosen for `sessionId`, or undefined when none was (or the file is unreadable). */
  modeOf(sessionId: string): PermissionMode | undefined {
    if (!SESSION_ID.test(sessionId)) return undefined;
    try {
      return permissionModeOf(readFileSync(join(this.#folder, sessionId), 'utf8').trim());
    } catch {
      return undefined;
    }
  }

  /** Records `mode` for `sessionId` (written whole, then renamed into place). */
  remember(sessionId: string, mode: PermissionMode): void {
    if (!SESSION_ID.test(sessionId)) return;
    mkdirSync(this.#folder, { recursive: true });
    const file = join(this.#folder, sessionId);
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, `${mode}\n`);
    renameSync(partial, file);
  }
}

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ClaimOwner } from '../store/session-claims.js';

/** Names this machine in claims instead of its host name (one name per machine sharing a home). */
export const HOST_ID_VARIABLE = 'CLAWSMITH_HOST_ID';

/** The kernel's id of this boot (Linux); empty where there is none, so pids compare by host alone. */
function readBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * A new owner identity for one AgentCore: the machine (`hostId`, else `CLAWSMITH_HOST_ID`, else
 * the host name), this boot, this pid and a random instance id.
 */
export function createTurnOwner(hostId?: string, environment: NodeJS.ProcessEnv = process.env): ClaimOwner {
  const host = hostId ?? environment[HOST_ID_VARIABLE]?.trim();
  return {
    host: host === undefined || host === '' ? hostname() : host,
    bootId: readBootId(),
    pid: process.pid,
    instance: randomUUID(),
  };
}

/** Whether a pid of `other` can be checked here: the same machine in the same boot. */
export function sameMachine(owner: ClaimOwner, other: ClaimOwner): boolean {
  return owner.host === other.host && owner.bootId === other.bootId;
}

import type { CoreServices } from '../core-services.js';
import { recoverSession } from '../recovery.js';
import type { DelegationStore } from './delegation-store.js';
import { processIsAlive } from '@clawsmith/platform';

/**
 * Closes the children of `parentSessionId` that a dead process left running: each child's open
 * calls and turn are closed like any interrupted turn (never re-run), and its delegation is
 * recorded `interrupted`. Children running in this process are left alone.
 */
export async function recoverChildren(
  services: CoreServices,
  delegations: DelegationStore,
  active: ReadonlySet<string>,
  parentSessionId: string,
): Promise<void> {
  for (const record of await delegations.list(parentSessionId)) {
    if (record.status !== 'running') continue;
    const ownerGone =
      record.ownerPid === process.pid ? !active.has(record.childSessionId) : !processIsAlive(record.ownerPid);
    if (!ownerGone) continue;
    await recoverSession(services, record.childSessionId);
    await delegations.complete(record.childSessionId, 'interrupted', {
      childSessionId: record.childSessionId,
      status: 'interrupted',
      summary: '',
      summaryTruncated: false,
      filesConsulted: [],
      steps: 0,
      error: {
        code: 'interrupted',
        message: 'The process running this subagent stopped; it was not re-run.',
      },
    });
  }
}

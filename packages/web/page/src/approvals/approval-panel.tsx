import type { PendingApproval } from '../api/api-types';
import { ApprovalCard } from './approval-card';

/** Calls waiting for the person's answer whose tool card is not in the transcript (those are answered inline). */
export function ApprovalPanel({ sessionId, approvals }: { sessionId: string; approvals: readonly PendingApproval[] }) {
  if (approvals.length === 0) return null;
  return (
    <section className="panel approvals" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Waiting for your approval</h2>
      {approvals.map((approval) => (
        <ApprovalCard key={approval.id} sessionId={sessionId} approval={approval} />
      ))}
    </section>
  );
}

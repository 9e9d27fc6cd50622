/** A tool call's status (success, error, denied, cancelled, unknown, running) as a labelled badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

/** A result's stable code (for example `command_failed`), when it has one. */
export function CodeBadge({ code }: { code: string }) {
  return (
    <code className="badge code" title="result code">
      {code}
    </code>
  );
}

import { useState } from 'react';
import { sendJson } from '../api/api-client';
import { ErrorNotice } from '../app/error-notice';
import { navigate } from '../app/hash-route';
import { LiteralText } from '../display/literal-text';
import { useJson } from '../session/use-json';

interface Workspaces {
  readonly workspaces: readonly { readonly path: string }[];
  readonly canRunTurns: boolean;
}

/**
 * Starts a session from the list: the workspace is chosen among the folders the server was
 * started with (the server refuses any other), then the first prompt; it opens the new session.
 */
export function NewSessionForm() {
  const { data, error: loadError } = useJson<Workspaces>('/api/workspaces', 0);
  const [workspace, setWorkspace] = useState<string | undefined>(undefined);
  const [prompt, setPrompt] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  if (loadError !== undefined) return <ErrorNotice error={loadError} />;
  if (!data) return null;
  if (data.workspaces.length === 0 || !data.canRunTurns)
    return (
      <p className="hint new-session-unavailable">
        {data.canRunTurns
          ? 'To start sessions here, start `clawsmith web` in the folder to work in.'
          : 'This server has no model, so it cannot start sessions; restart it with --script FILE or --provider and --model.'}
      </p>
    );
  const chosen = workspace ?? data.workspaces[0]!.path;
  const submit = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    if (prompt.trim() === '' || sending) return;
    setSending(true);
    setError(undefined);
    sendJson<{ sessionId: string }>('/api/sessions', { workspace: chosen, prompt }).then(
      ({ sessionId }) => navigate(`/sessions/${sessionId}`),
      (refused: unknown) => {
        setError(refused);
        setSending(false);
      },
    );
  };
  return (
    <form className="new-session" aria-labelledby="new-session-heading" onSubmit={submit}>
      <h2 id="new-session-heading">New session</h2>
      {data.workspaces.length === 1 ? (
        <p className="workspace-choice">
          In <LiteralText text={chosen} limit={300} />
        </p>
      ) : (
        <label className="workspace-choice">
          Workspace{' '}
          <select value={chosen} onChange={(event) => setWorkspace(event.target.value)}>
            {data.workspaces.map(({ path }) => (
              <option key={path} value={path}>
                {path}
              </option>
            ))}
          </select>
        </label>
      )}
      <label htmlFor="new-session-prompt">First prompt</label>
      <textarea
        id="new-session-prompt"
        rows={2}
        value={prompt}
        aria-describedby="new-session-keys"
        onChange={(event) => setPrompt(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
        }}
      />
      <p id="new-session-keys" className="hint">
        Enter starts the session · Shift+Enter starts a new line
      </p>
      <button type="submit" disabled={sending || prompt.trim() === ''}>
        {sending ? 'Starting…' : 'Start session'}
      </button>
      {error !== undefined && <ErrorNotice error={error} />}
    </form>
  );
}

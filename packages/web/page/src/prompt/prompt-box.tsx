import { useState, type FormEvent } from 'react';
import { sendJson, sessionPath } from '../api/api-client';
import { ErrorNotice } from '../app/error-notice';

/** Starts a turn from a prompt; while one runs, a stop button cancels it. */
export function PromptBox({ sessionId, running }: { sessionId: string; running: boolean }) {
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<unknown>();
  const [sending, setSending] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (prompt.trim() === '' || sending || running) return;
    setSending(true);
    setError(undefined);
    sendJson(sessionPath(sessionId, '/turns'), { prompt })
      .then(() => setPrompt(''), setError)
      .finally(() => setSending(false));
  };
  const stop = () => {
    setError(undefined);
    sendJson(sessionPath(sessionId, '/cancel'), {}).catch(setError);
  };
  return (
    <form className="prompt-box" onSubmit={submit}>
      <label htmlFor="prompt-input">Prompt for a new turn</label>
      <textarea
        id="prompt-input"
        rows={3}
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        aria-describedby="prompt-keys"
        onKeyDown={(event) => {
          // Enter sends, Shift+Enter breaks the line; Enter that confirms an input method's composition does neither.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
        }}
      />
      <p id="prompt-keys" className="hint">
        Enter sends · Shift+Enter starts a new line
      </p>
      <div className="prompt-actions">
        <button type="submit" disabled={sending || running}>
          Send
        </button>
        {running && (
          <button type="button" className="danger" onClick={stop}>
            Stop
          </button>
        )}
      </div>
      {error !== undefined && <ErrorNotice error={error} />}
    </form>
  );
}

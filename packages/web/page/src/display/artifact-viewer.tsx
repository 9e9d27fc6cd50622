import { useState, type FormEvent } from 'react';
import { getJson, sessionPath } from '../api/api-client';
import { ErrorNotice } from '../app/error-notice';
import { visibleText } from './visible-text';

const PAGE_LINES = 100;

interface LinesAnswer {
  readonly mode: 'lines';
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly lineCount: number;
  readonly nextLine?: number;
}

interface SearchAnswer {
  readonly mode: 'search';
  readonly lines: readonly { lineNumber: number; text: string; match: boolean }[];
  readonly matchCount: number;
}

/** Pages through an artifact by line range and searches it; nothing is fetched until opened. */
export function ArtifactViewer({ sessionId, artifactId }: { sessionId: string; artifactId: string }) {
  const [view, setView] = useState<LinesAnswer | SearchAnswer | undefined>();
  const [query, setQuery] = useState('');
  const [error, setError] = useState<unknown>();
  const base = sessionPath(sessionId, `/artifacts/${encodeURIComponent(artifactId)}`);

  const readFrom = (startLine: number) => {
    setError(undefined);
    getJson<LinesAnswer>(`${base}?startLine=${startLine}&endLine=${startLine + PAGE_LINES - 1}`).then(
      setView,
      setError,
    );
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (query === '') return;
    setError(undefined);
    getJson<SearchAnswer>(`${base}?pattern=${encodeURIComponent(query)}&maxMatches=50`).then(setView, setError);
  };

  return (
    <section className="artifact" aria-label={`Artifact ${artifactId}`}>
      <div className="artifact-bar">
        <button type="button" onClick={() => readFrom(view?.mode === 'lines' ? view.startLine : 1)}>
          {view ? 'Show lines' : 'Open output'}
        </button>
        {view?.mode === 'lines' && (
          <>
            <button
              type="button"
              disabled={view.startLine <= 1}
              onClick={() => readFrom(Math.max(1, view.startLine - PAGE_LINES))}
            >
              Previous lines
            </button>
            <button type="button" disabled={view.nextLine === undefined} onClick={() => readFrom(view.nextLine ?? 1)}>
              Next lines
            </button>
            <span className="artifact-range">
              lines {view.startLine}-{view.endLine} of {view.lineCount}
            </span>
          </>
        )}
        <form role="search" onSubmit={search}>
          <label>
            Search output <input value={query} onChange={(event) => setQuery(event.target.value)} />
          </label>
          <button type="submit">Search</button>
        </form>
      </div>
      {error !== undefined && <ErrorNotice error={error} />}
      {view?.mode === 'lines' && <pre className="literal">{visibleText(view.text).text}</pre>}
      {view?.mode === 'search' && (
        <ol className="artifact-matches" aria-label="Matches">
          <li className="match-count">{view.matchCount} matches</li>
          {view.lines.map((line) => (
            <li key={line.lineNumber} className={line.match ? 'match' : 'context'}>
              <span className="line-number">{line.lineNumber}</span> {visibleText(line.text, 2_000).text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

import type { ToolDisplay } from '../api/api-types';
import { visibleText } from './visible-text';

const MAX_HITS = 200;

/** A `search` display: one row per hit (`path:line: preview`). */
export function SearchView({ display }: { display: ToolDisplay }) {
  const hits = (display.body ?? '').split('\n').filter((line) => line !== '');
  return (
    <div className="search">
      <p className="hit-count">
        {hits.length} {hits.length === 1 ? 'hit' : 'hits'}
      </p>
      <ol className="hits">
        {hits.slice(0, MAX_HITS).map((hit, index) => (
          <li key={index}>{visibleText(hit, 1_000).text}</li>
        ))}
      </ol>
      {hits.length > MAX_HITS && <p className="omitted">… {hits.length - MAX_HITS} more hits not shown</p>}
    </div>
  );
}

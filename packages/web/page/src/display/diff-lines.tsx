import { diffCounts, diffLineKinds } from './diff-counts';
import { visibleText } from './visible-text';

/** Lines of a unified diff shown at most; the rest are counted. */
const MAX_DIFF_LINES = 400;

/** A unified diff with added and removed lines marked, as literal text. */
export function DiffLines({ diff }: { diff: string }) {
  // A diff ends with a newline: the empty string after it is no line.
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  const kinds = diffLineKinds(lines);
  const shown = lines.slice(0, MAX_DIFF_LINES);
  const { added, removed } = diffCounts(diff);
  return (
    <div className="diff">
      <p className="diff-totals">
        <span className="added-count">+{added}</span> <span className="removed-count">−{removed}</span>
      </p>
      <pre>
        {shown.map((line, index) => (
          <span key={index} className={`diff-line ${kinds[index]}`}>
            {visibleText(line, 2_000).text}
            {'\n'}
          </span>
        ))}
      </pre>
      {lines.length > shown.length && <p className="omitted">… {lines.length - shown.length} more lines not shown</p>}
    </div>
  );
}

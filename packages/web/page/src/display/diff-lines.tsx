import { visibleText } from './visible-text';

/** Lines of a unified diff shown at most; the rest are counted. */
const MAX_DIFF_LINES = 400;

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'file-header';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

/** A unified diff with added and removed lines marked, as literal text. */
export function DiffLines({ diff }: { diff: string }) {
  const lines = diff.split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES);
  const added = lines.filter((line) => line.startsWith('+') && !line.startsWith('+++')).length;
  const removed = lines.filter((line) => line.startsWith('-') && !line.startsWith('---')).length;
  return (
    <div className="diff">
      <p className="diff-totals">
        <span className="added-count">+{added}</span> <span className="removed-count">−{removed}</span>
      </p>
      <pre>
        {shown.map((line, index) => (
          <span key={index} className={`diff-line ${lineClass(line)}`}>
            {visibleText(line, 2_000).text}
            {'\n'}
          </span>
        ))}
      </pre>
      {lines.length > shown.length && <p className="omitted">… {lines.length - shown.length} more lines not shown</p>}
    </div>
  );
}

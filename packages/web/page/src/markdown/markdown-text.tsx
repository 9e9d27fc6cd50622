import { lazy, Suspense } from 'react';
import { visibleText } from '../display/visible-text';
import { wholeNumber } from '../display/whole-number';

// The Markdown parser is most of the page's weight: it is its own chunk, fetched the first time
// assistant text is shown (a session opened by its URL starts it earlier, see first-view-entry.ts),
// with the literal text in its place until then.
const MarkdownRenderer = lazy(() => import('./markdown-renderer'));

/**
 * Text the model wrote, rendered as Markdown (see `markdown-renderer.tsx`). Control characters
 * and bidi overrides are made visible first, and at most `limit` characters are rendered (the
 * rest are counted).
 */
export function MarkdownText({ text, limit }: { text: string; limit?: number }) {
  const shown = visibleText(text, limit);
  return (
    <div className="markdown">
      <Suspense fallback={<pre className="literal markdown-pending">{shown.text}</pre>}>
        <MarkdownRenderer text={shown.text} />
      </Suspense>
      {shown.omitted > 0 && <span className="omitted">… {wholeNumber(shown.omitted)} more characters not shown</span>}
    </div>
  );
}

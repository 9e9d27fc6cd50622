import { visibleText } from './visible-text';
import { wholeNumber } from './whole-number';

/** Untrusted text as one React text node: literal, visible, bounded, wrapped anywhere. */
export function LiteralText({ text, limit, block }: { text: string; limit?: number; block?: boolean }) {
  const shown = visibleText(text, limit);
  const Element = block ? 'pre' : 'span';
  return (
    <>
      <Element className="literal">{shown.text}</Element>
      {shown.omitted > 0 && <span className="omitted">… {wholeNumber(shown.omitted)} more characters not shown</span>}
    </>
  );
}

import { visibleText } from './visible-text';

/** Untrusted text as one React text node: literal, visible, bounded, wrapped anywhere. */
export function LiteralText({ text, limit, block }: { text: string; limit?: number; block?: boolean }) {
  const shown = visibleText(text, limit);
  const Element = block ? 'pre' : 'span';
  return (
    <>
      <Element className="literal">{shown.text}</Element>
      {shown.omitted > 0 && (
        <span className="omitted">… {shown.omitted.toLocaleString('en')} more characters not shown</span>
      )}
    </>
  );
}

import { useEffect, useRef, useState, type ReactNode } from 'react';
import type * as HighlightCode from './highlight-code';

type Highlighter = typeof HighlightCode;
let highlighter: Promise<Highlighter> | undefined;

/** Loads the highlighter chunk once, the first time any code block is on screen. */
function loadHighlighter(): Promise<Highlighter> {
  highlighter ??= import('./highlight-code');
  return highlighter;
}

/** Code above this size stays plain: highlighting it would hold the page for little gain. */
const HIGHLIGHT_LIMIT = 50_000;

/**
 * A fenced code block from model text: plain text at once, highlighted (when its fence names a
 * language the page knows) once the block is on screen. `data-highlighted` says which it is.
 */
export function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const element = useRef<HTMLPreElement>(null);
  const [highlighted, setHighlighted] = useState<ReactNode | undefined>(undefined);

  useEffect(() => {
    const block = element.current;
    if (!block || language === undefined || code.length > HIGHLIGHT_LIMIT) return;
    let cancelled = false;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      void loadHighlighter().then((module) => {
        if (!cancelled) setHighlighted(module.highlightCode(code, language));
      });
    });
    observer.observe(block);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [code, language]);

  return (
    <pre
      ref={element}
      className="code-block"
      data-language={language}
      data-highlighted={highlighted === undefined ? 'false' : 'true'}
    >
      <code className="hljs">{highlighted ?? code}</code>
    </pre>
  );
}

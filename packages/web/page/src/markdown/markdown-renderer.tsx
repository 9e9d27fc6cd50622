import type { Element, ElementContent } from 'hast';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './code-block';
import { linkTarget, shownTarget } from './link-target';

function textOf(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) => (node.type === 'text' ? node.value : node.type === 'element' ? textOf(node.children) : ''))
    .join('');
}

/** The language a fence names (`language-ts` on its `code` element). */
function fenceLanguage(code: Element | undefined): string | undefined {
  const classes = code?.properties.className;
  const names = Array.isArray(classes) ? classes.map(String) : [];
  return names.find((name) => name.startsWith('language-'))?.slice('language-'.length);
}

const COMPONENTS: Components = {
  a({ href, children, node }) {
    const target = href ? linkTarget(href) : '';
    if (target === '') return <span className="link-dropped">{children}</span>;
    const shown = shownTarget(target);
    // An autolink already shows its target as its text.
    if (textOf(node?.children ?? []) === shown || textOf(node?.children ?? []) === href)
      return (
        <a href={target} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    return (
      <>
        <a href={target} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
        <span className="link-target"> ({shown})</span>
      </>
    );
  },
  img({ alt, src }) {
    // Images are never fetched: a model could point one anywhere. The page says what it left out.
    return <span className="image-off">{`[image${alt ? `: ${alt}` : ''}${src ? ` — ${src}` : ''}]`}</span>;
  },
  pre({ node }) {
    const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
    return <CodeBlock code={textOf(code?.children ?? []).replace(/\n$/, '')} language={fenceLanguage(code)} />;
  },
};

/**
 * Markdown (GitHub flavour) as React elements: raw HTML in it stays text, links keep only
 * `http(s)`/`mailto` targets and show them, images are not loaded, code blocks are highlighted
 * once on screen. The default export, so the page can load it as its own chunk.
 */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} components={COMPONENTS} urlTransform={linkTarget}>
      {text}
    </Markdown>
  );
}

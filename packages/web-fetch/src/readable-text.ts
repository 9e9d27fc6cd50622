import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { charsetOf } from './content-kind.js';

type PageDocument = ReturnType<typeof parseHTML>['document'];
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

/** A page as readable text. */
export interface ReadablePage {
  /** The page's title, when it has one. */
  readonly title?: string;
  /** Markdown for HTML, the decoded text otherwise. */
  readonly text: string;
  /** Whether article extraction found the main content (else the whole body was converted). */
  readonly extracted: boolean;
}

/** Decodes `body` by the header's charset, else an HTML `<meta charset>`, else UTF-8. */
export function decodeBody(body: Buffer, contentType: string, html: boolean): string {
  const sniffed = html
    ? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1]
    : undefined;
  const label = charsetOf(contentType) ?? sniffed ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    // An unknown label: UTF-8 shows most of any page.
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Pages larger than this skip article extraction and are converted whole: Readability costs about
 * as much again as parsing and converting (seconds for a page of many megabytes).
 */
export const ARTICLE_EXTRACTION_MAX_CHARS = 1024 * 1024;

function absolutize(document: PageDocument, base: URL): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      try {
        element.setAttribute(attribute, new URL(value, base).href);
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

function markdown(html: string): string {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Scripts, styles and forms carry no reading text.
  service.remove(['script', 'style', 'noscript', 'iframe', 'form', 'template'] as never);
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Turns an HTML page into Markdown: links made absolute against `url`, the main content found by
 * Readability (Firefox's reader view), converted by Turndown; a page Readability finds no article
 * in, or one over {@link ARTICLE_EXTRACTION_MAX_CHARS}, is converted whole (its body).
 */
export function htmlToMarkdown(html: string, url: URL): ReadablePage {
  let { document } = parseHTML(html);
  // linkedom leaves a fragment (a cut body, a page without <html>) without a document element.
  if (!document.documentElement) ({ document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`));
  absolutize(document, url);
  const titleText = document.querySelector('title')?.textContent?.trim();
  const title = titleText === undefined || titleText === '' ? undefined : titleText;
  const body = document.body?.innerHTML ?? html;
  let article: { title?: string | null; content?: string | null } | null = null;
  if (html.length <= ARTICLE_EXTRACTION_MAX_CHARS)
    try {
      article = new Readability(document as unknown as ReadabilityDocument, { charThreshold: 200 }).parse();
    } catch {
      article = null;
    }
  if (article?.content) {
    const text = markdown(article.content);
    if (text !== '') return { title: article.title || title, text, extracted: true };
  }
  return { ...(title === undefined ? {} : { title }), text: markdown(body), extracted: false };
}

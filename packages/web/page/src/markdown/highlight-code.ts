// The syntax highlighter, loaded only when a code block first comes on screen (its own chunk):
// highlight.js grammars run by lowlight, which returns a tree of elements instead of an HTML
// string, turned into React elements here. Nothing from the code becomes markup.
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';

const lowlight = createLowlight({ bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml });
lowlight.registerAlias({
  bash: ['sh', 'shell', 'zsh', 'console'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  python: ['py'],
  rust: ['rs'],
  xml: ['html', 'svg'],
  yaml: ['yml'],
  go: ['golang'],
});

/** The languages a fence may name (with their aliases). */
export function highlightedLanguage(language: string): boolean {
  return lowlight.registered(language.toLowerCase());
}

/**
 * `code` as React elements with `hljs-*` class names, or `undefined` when the fence names no
 * language this page highlights (the block then stays plain text).
 */
export function highlightCode(code: string, language: string): ReactNode | undefined {
  const name = language.toLowerCase();
  if (!lowlight.registered(name)) return undefined;
  return toJsxRuntime(lowlight.highlight(name, code), { Fragment, jsx, jsxs });
}

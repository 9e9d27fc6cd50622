import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

async function ruleMessages(code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: `${root}packages/web/page/src/probe.tsx` });
  return result!.messages.map((message) => `${message.line}:${message.ruleId}`);
}

describe('the web package lint rule against HTML and code from strings', () => {
  it('rejects dangerouslySetInnerHTML, innerHTML, outerHTML, insertAdjacentHTML, document.write, eval and new Function', async () => {
    const messages = await ruleMessages(
      [
        'export const A = ({ html }: { html: string }) => <div dangerouslySetInnerHTML={{ __html: html }} />;',
        "document.body.innerHTML = 'x';",
        "document.body.outerHTML = 'x';",
        "document.body.insertAdjacentHTML('beforeend', 'x');",
        "document.write('x');",
        "export const f = new Function('return 1');",
        "eval('1');",
        '',
      ].join('\n'),
    );
    const restricted = messages
      .filter((message) => message.endsWith('no-restricted-syntax'))
      .map((message) => message.split(':')[0]);
    expect(restricted).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('accepts untrusted text rendered as React children', async () => {
    expect(await ruleMessages('export const A = ({ text }: { text: string }) => <pre>{text}</pre>;\n')).toEqual([]);
  });
});
